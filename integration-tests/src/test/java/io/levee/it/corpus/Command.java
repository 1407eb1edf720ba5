package io.levee.it.corpus;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A program of the corpus started as its users start it, in an environment without anything that
 * would put an agent or options into it behind the test's back: only the way decides that.
 */
final class Command {
  /** Variables that give a JVM or Maven options; a developer's shell or the outer build may set them. */
  private static final List<String> INHERITED_OPTIONS =
      List.of(
          "JAVA_TOOL_OPTIONS",
          "JDK_JAVA_OPTIONS",
          "_JAVA_OPTIONS",
          "MAVEN_OPTS",
          "MAVEN_ARGS",
          "MAVEN_DEBUG_OPTS");

  private final List<String> command = new ArrayList<>();
  private final Map<String, String> env;
  private final ProcessBuilder builder;

  Command(List<String> command, Path dir, Path stdout, Path stderr) {
    this.command.addAll(command);
    this.builder =
        new ProcessBuilder(this.command)
            .directory(dir.toFile())
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile());
    this.env = builder.environment();
    env.keySet().removeIf(k -> k.startsWith("LEVEE_") || INHERITED_OPTIONS.contains(k));
  }

  Command env(String key, String value) {
    env.put(key, value);
    return this;
  }

  Process start() {
    try {
      Files.createDirectories(builder.directory().toPath());
      return builder.start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start " + command, e);
    }
  }

  /** Runs it to its end; its exit status. */
  int run(Duration timeout) {
    Process process = start();
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw new IllegalStateException(command + " did not end within " + timeout);
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return String.join(" ", command);
  }
}
