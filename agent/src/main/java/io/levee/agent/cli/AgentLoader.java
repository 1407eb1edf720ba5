package io.levee.agent.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import net.bytebuddy.agent.ByteBuddyAgent;

/**
 * Loads the agent jar into a JVM with a command for the agent ({@code command=status}...) and reads
 * its answer. The answer comes back through a file in a fresh directory only this user can enter
 * (mode 700; the agent writes the file with mode 600), named in the agent argument; the agent
 * writes it before its {@code agentmain} returns, which is when the load returns here. No port is
 * opened for it.
 */
final class AgentLoader {
  private static final Charset UTF_8 = Charset.forName("UTF-8");
  private final File agentJar;

  AgentLoader(File agentJar) {
    this.agentJar = agentJar;
  }

  /** The answer of the agent in {@code pid} to {@code arguments} (without {@code reply=}). */
  Answer load(String pid, String arguments, String owner) throws CliFailure {
    Path dir = privateDirectory(owner);
    Path reply = dir.resolve("reply");
    try {
      try {
        ByteBuddyAgent.attach(agentJar, pid, arguments + ",reply=" + reply);
      } catch (Throwable t) {
        throw new CliFailure(AttachErrors.describe(pid, t));
      }
      if (!Files.isRegularFile(reply)) {
        throw new CliFailure(
            "process " + pid + " loaded the agent but gave no answer; its own output may say why");
      }
      String text = new String(Files.readAllBytes(reply), UTF_8);
      int newline = text.indexOf('\n');
      String first = newline < 0 ? text : text.substring(0, newline);
      return new Answer("ok".equals(first), newline < 0 ? "" : text.substring(newline + 1));
    } catch (IOException e) {
      throw new CliFailure("cannot read the answer of process " + pid + ": " + e);
    } finally {
      deleteQuietly(reply);
      deleteQuietly(dir);
    }
  }

  /**
   * A directory for the answer that only this user can enter; when root acts on another user's JVM,
   * that user's instead, so the JVM can write its answer.
   */
  private static Path privateDirectory(String owner) throws CliFailure {
    try {
      Path dir;
      try {
        dir =
            Files.createTempDirectory(
                "levee-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } catch (UnsupportedOperationException notPosix) {
        dir = Files.createTempDirectory("levee-");
      }
      if (owner != null && !owner.equals(System.getProperty("user.name"))) {
        UserPrincipal user =
            FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(owner);
        Files.setOwner(dir, user);
      }
      return dir;
    } catch (IOException e) {
      throw new CliFailure("cannot create a private temporary directory for the answer: " + e);
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException ignored) {
      // A temporary file left behind in a private directory is harmless.
    }
  }

  /** What the agent answered: success or failure, and the text to print. */
  static final class Answer {
    final boolean ok;
    final String text;

    Answer(boolean ok, String text) {
      this.ok = ok;
      this.text = text;
    }
  }
}
