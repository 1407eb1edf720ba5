package io.levee.agent.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.concurrent.TimeUnit;
import net.bytebuddy.agent.ByteBuddyAgent;

/**
 * Gives a JVM a command for the agent ({@code command=status}...) and reads its answer. A JVM whose
 * agent runs has a command box (a directory only its user can enter, named by the system property
 * {@code levee.agent.commands}): the command goes there as a file and nothing is loaded, so a JVM
 * on JDK 21 or later prints no warning about agents loaded at run time. Otherwise (an attach, or an
 * agent without a box) the agent jar is loaded with the command as its argument.
 *
 * <p>The answer comes back through a file in a fresh directory only this user can enter (mode 700;
 * the agent writes the file with mode 600), named in the command; the agent writes it when the
 * command is done: before its {@code agentmain} returns for a load, and within {@value
 * #ANSWER_SECONDS} s for a command box. No port is opened for either. The answer is read by {@link
 * ReplyFile}.
 */
final class AgentLoader {
  /** How long a command box may take to answer: a detach under load takes seconds. */
  static final int ANSWER_SECONDS = 60;

  private final File agentJar;

  AgentLoader(File agentJar) {
    this.agentJar = agentJar;
  }

  /**
   * The answer of the agent in {@code pid} to {@code arguments} (without {@code reply=}), through
   * {@code box} (the running agent's command box, or null to load the agent jar).
   */
  Answer load(String pid, String arguments, String owner, String box) throws CliFailure {
    Path dir = privateDirectory();
    Path reply = dir.resolve("reply");
    try {
      UserPrincipal self = handOver(dir, owner);
      String command = arguments + ",reply=" + reply;
      if (box == null) {
        try {
          ByteBuddyAgent.attach(agentJar, pid, command);
        } catch (Throwable t) {
          throw new CliFailure(AttachErrors.describe(pid, t));
        }
      } else {
        post(pid, Paths.get(box), command, owner, reply);
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

  /**
   * Drops {@code command} into the command box {@code box} of {@code pid} and waits for the answer
   * at {@code reply}. The box must be a directory of the JVM's owner that no one else may enter: a
   * command is never written where another user could read or swap it.
   */
  private static void post(String pid, Path box, String command, String owner, Path reply)
      throws IOException, CliFailure {
    if (!Files.isDirectory(box, LinkOption.NOFOLLOW_LINKS)
        || (owner != null && !owner.equals(Files.getOwner(box).getName()))
        || !Files.getPosixFilePermissions(box)
            .equals(PosixFilePermissions.fromString("rwx------"))) {
      throw new CliFailure(
          "process "
              + pid
              + " names "
              + box
              + " for commands, but it is not its private directory");
    }
    String name = "command-" + Long.toHexString(System.nanoTime());
    Path aside = box.resolve(name + ".part");
    Files.write(aside, command.getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE_NEW);
    if (owner != null && !owner.equals(System.getProperty("user.name"))) {
      // Root acting for another user: the agent, running as that user, must be able to read it.
      Files.setOwner(
          aside,
          FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(owner));
    }
    Path posted = box.resolve(name + ".cmd");
    Files.move(aside, posted, StandardCopyOption.ATOMIC_MOVE);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ANSWER_SECONDS);
    while (!Files.exists(reply, LinkOption.NOFOLLOW_LINKS)) {
      if (System.nanoTime() > deadline) {
        boolean taken = !Files.exists(posted);
        deleteQuietly(posted);
        throw new CliFailure(
            "process "
                + pid
                + (taken
                    ? " took the command but gave no answer within "
                    : " did not take the command within ")
                + ANSWER_SECONDS
                + " s; its own output may say why");
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CliFailure("interrupted while waiting for the answer of process " + pid);
      }
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
