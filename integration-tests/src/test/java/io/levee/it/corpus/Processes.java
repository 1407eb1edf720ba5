package io.levee.it.corpus;

import io.levee.testkit.JvmCommand;
import io.levee.testkit.JvmProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/** What every process the corpus starts shares: its environment, how it is stopped, its output. */
public final class Processes {
  /** Variables through which options reach a JVM from outside the command line. */
  private static final List<String> JVM_OPTIONS =
      List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");

  private Processes() {}

  /**
   * The variables a process of the corpus leaves out of this JVM's environment ({@link
   * JvmCommand#withoutEnv}): the agent's and the JVM's option variables a developer may have set,
   * so that only the {@link Way} puts the agent in.
   */
  public static final Predicate<String> NOT_HERMETIC =
      name -> name.startsWith("LEVEE_") || JVM_OPTIONS.contains(name);

  /**
   * Stops {@code process} as an operator or a service manager does, with SIGTERM, so that its
   * shutdown hooks run; returns its exit status. Fails if it has not ended after {@code grace}.
   */
  public static int stop(JvmProcess process, Duration grace, Object name) {
    if (!process.stop(grace)) {
      if (Thread.currentThread().isInterrupted()) {
        throw new IllegalStateException(name + " was interrupted while it stopped");
      }
      throw new IllegalStateException(
          name + " did not stop within " + grace.toSeconds() + " s of SIGTERM");
    }
    return process.exitValue();
  }

  /** The text of {@code file}, empty while it does not exist. */
  public static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
