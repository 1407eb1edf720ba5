package io.levee.agent.startup;

import io.levee.agent.args.ControlArgs;
import io.levee.agent.log.AgentLog;
import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * How the command line reaches an agent that is already running without loading an agent again: on
 * JDK 21 and later every agent loaded at run time makes the JVM print a warning in the
 * application's output, and {@code status} run every minute by a script would fill it.
 *
 * <p>The box is a directory that only the JVM's user can enter (mode 700, a random name under the
 * temporary directory), published in the system property {@value #PROPERTY}, which the command line
 * reads through the attach mechanism without loading anything. The command line drops a file {@code
 * NAME.cmd} holding the same arguments it would give an attach ({@code command=status,reply=FILE});
 * the thread {@code levee-commands} looks a few times a second, takes the file away and runs it as
 * {@link LeveeAgent#agentmain} would, and the answer goes to the reply file as for an attach. So
 * "same user only" holds as before: only that user (or root) can put a file in the box, and the
 * answer goes to the caller's private directory.
 *
 * <p>Concurrency: one thread takes the commands and runs them one at a time; {@link #close} (at a
 * detach, maybe from that very thread) stops it after the command in hand.
 */
final class CommandBox implements Closeable, Runnable {
  /** The system property naming the box's directory while the agent runs. */
  static final String PROPERTY = "levee.agent.commands";

  static final String SUFFIX = ".cmd";

  private static final long LOOK_MILLIS = 100;
  private static final int MAX_BYTES = 64 * 1024;
  private static final Charset UTF_8 = Charset.forName("UTF-8");

  private final Path dir;
  private final Instrumentation inst;
  private final AgentLog log;
  private final Thread thread;
  private volatile boolean closed;

  private CommandBox(Path dir, Instrumentation inst, AgentLog log) {
    this.dir = dir;
    this.inst = inst;
    this.log = log;
    this.thread = new Thread(this, "levee-commands");
    thread.setDaemon(true);
    thread.setContextClassLoader(null);
  }

  /**
   * Creates the box and starts its thread; null (logged) when no private directory can be made, in
   * which case the command line falls back to loading the agent for each command.
   */
  static CommandBox open(Instrumentation inst, AgentLog log) {
    Path dir;
    try {
      try {
        dir =
            Files.createTempDirectory(
                "levee-commands-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } catch (UnsupportedOperationException notPosix) {
        // Not a POSIX file system: the command line loads the agent for each command instead.
        return null;
      }
    } catch (IOException | RuntimeException e) {
      log.warn(
          "cannot create the directory for commands ("
              + e
              + "): each command of the command line will load the agent again");
      return null;
    }
    // Removed at a detach by the thread; at the JVM's exit that thread just stops, so the JVM
    // deletes the directory then (when empty, as it is between commands).
    dir.toFile().deleteOnExit();
    CommandBox box = new CommandBox(dir, inst, log);
    box.thread.start();
    System.setProperty(PROPERTY, dir.toString());
    return box;
  }

  @Override
  public void run() {
    while (!closed) {
      try {
        File[] files = dir.toFile().listFiles();
        if (files != null) {
          for (File file : files) {
            if (file.getName().endsWith(SUFFIX)) {
              take(file.toPath());
            }
          }
        }
        Thread.sleep(LOOK_MILLIS);
      } catch (InterruptedException e) {
        break;
      } catch (Throwable t) {
        log.warn("a command from the command line failed", t);
      }
    }
    deleteBox();
  }

  /** Reads and removes one command, then runs it like a load of the agent jar. */
  private void take(Path file) throws IOException {
    String args;
    try {
      args = read(file);
    } finally {
      Files.deleteIfExists(file);
    }
    if (args == null || closed) {
      return;
    }
    ControlArgs control = ControlArgs.parse(args);
    if (!control.known()) {
      log.warn("ignored a command file that holds no known command");
      return;
    }
    LeveeAgent.agentmain(args, inst);
  }

  /** The file's text, or null when it is not a small regular file (never through a link). */
  private static String read(Path file) throws IOException {
    BasicFileAttributes a =
        Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!a.isRegularFile() || a.size() > MAX_BYTES) {
      return null;
    }
    return new String(Files.readAllBytes(file), UTF_8).trim();
  }

  /** Stops taking commands; the one in hand (a detach, maybe) finishes first. */
  @Override
  public void close() {
    closed = true;
    System.clearProperty(PROPERTY);
    if (Thread.currentThread() != thread) {
      thread.interrupt();
      try {
        thread.join(2000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void deleteBox() {
    File[] left = dir.toFile().listFiles();
    if (left != null) {
      for (File f : left) {
        f.delete();
      }
    }
    dir.toFile().delete();
  }
}
