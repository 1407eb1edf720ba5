package io.levee.it.corpus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** What every process the corpus starts shares: its environment, how it is stopped, its output. */
public final class Processes {
  /** Variables through which options reach a JVM from outside the command line. */
  private static final List<String> JVM_OPTIONS =
      List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");

  private Processes() {}

  /**
   * {@code builder} without the agent's variables or the JVM's option variables a developer may
   * have set: only the {@link Way} puts the agent in.
   */
  public static ProcessBuilder hermetic(ProcessBuilder builder) {
    builder.environment().keySet().removeIf(k -> k.startsWith("LEVEE_") || JVM_OPTIONS.contains(k));
    return builder;
  }

  /**
   * Stops {@code process} as an operator or a service manager does, with SIGTERM, so that its
   * shutdown hooks run; returns its exit status. Fails if it has not ended after {@code grace}.
   */
  public static int stop(Process process, Duration grace, Object name) {
    process.destroy();
    try {
      if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new IllegalStateException(name + " did not stop within " + grace.toSeconds() + " s of SIGTERM");
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
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
