package io.levee.agent.cli;

import java.io.File;
import java.io.IOException;
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
 * opened for it. The answer is read by {@link ReplyFile}.
 */
final class AgentLoader {
  private final File agentJar;

  AgentLoader(File agentJar) {
    this.agentJar = agentJar;
  }

  /** The answer of the agent in {@code pid} to {@code arguments} (without {@code reply=}). */
  Answer load(String pid, String arguments, String owner) throws CliFailure {
    Path dir = privateDirectory();
    Path reply = dir.resolve("reply");
    try {
      UserPrincipal self = handOver(dir, owner);
      try {
        ByteBuddyAgent.attach(agentJar, pid, arguments + ",reply=" + reply);
      } catch (Throwable t) {
        throw new CliFailure(AttachErrors.describe(pid, t));
      }
      if (self != null) {
        // Taken back before reading, so the other user can no longer change what is read.
        Files.setOwner(dir, self);
      }
      String text = ReplyFile.read(reply);
      if (text == null) {
        throw new CliFailure(
            "process " + pid + " loaded the agent but gave no answer; its own output may say why");
      }
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

  /** A directory for the answer that only this user can enter. */
  private static Path privateDirectory() throws CliFailure {
    try {
      try {
        return Files.createTempDirectory(
            "levee-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } catch (UnsupportedOperationException notPosix) {
        return Files.createTempDirectory("levee-");
      }
    } catch (IOException e) {
      throw new CliFailure("cannot create a private temporary directory for the answer: " + e);
    }
  }

  /**
   * When root acts on another user's JVM, hands {@code dir} to that user so the JVM can write its
   * answer; returns the previous owner, or null when nothing was handed over.
   */
  private static UserPrincipal handOver(Path dir, String owner) throws CliFailure {
    if (owner == null || owner.equals(System.getProperty("user.name"))) {
      return null;
    }
    try {
      UserPrincipal self = Files.getOwner(dir);
      UserPrincipal user =
          FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(owner);
      Files.setOwner(dir, user);
      return self;
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
