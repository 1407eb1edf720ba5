package io.levee.testkit;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An application JVM in a process of its own, as the integration tests, the demo and the benchmarks
 * start one: a JDK's {@code java} (this JVM's unless told), optionally pinned to CPUs with {@code
 * taskset}, JVM options with the agent among them where it belongs ({@link #agentOption}), then a
 * main class on a class path, a jar or a source file, and arguments. A script that starts a JVM
 * itself ({@code mvn}, {@code catalina.sh}) is run as it is with {@link #command}. Its output goes
 * to files or, line by line, to a file and a consumer; {@link #awaitReady} waits for the line that
 * says it is ready, and {@link #stop} ends it with SIGTERM and kills it after a grace period.
 *
 * <p>Concurrency: a process is driven by the thread that started it; the thread that copies output
 * line by line only writes the log and completes {@code ready}. {@link #LIVE} (processes to kill if
 * this JVM exits first) is touched by starting and stopping threads and the shutdown hook.
 */
public final class JvmProcess implements AutoCloseable {
  private static final long POLL_MILLIS = 50;

  /** How long a killed process, or the copy of its last output, may still take. */
  private static final Duration AFTER_KILL = Duration.ofSeconds(10);

  private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

  static {
    // A failed or interrupted run must not leave an application holding a port.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly)));
  }

  private final Process process;
  private final Path stdout;
  private final Path stderr;
  private final Pattern ready;
  private final CompletableFuture<MatchResult> readyLine = new CompletableFuture<>();
  private final Thread copier;

  JvmProcess(JvmCommand b, Process process) {
    this.process = process;
    if (b.killOnExit) {
      LIVE.add(process);
    }
    this.stdout = b.stdout;
    this.stderr = b.stderr;
    this.ready = b.ready;
    if (b.lines != null) {
      copier = new Thread(() -> copyLines(b.stdout, b.lines), "app-output");
      copier.setDaemon(true);
      copier.start();
    } else {
      copier = null;
    }
  }

  /** A command line on this JVM's own {@code java}, so the application runs on the same JDK. */
  public static JvmCommand java() {
    return new JvmCommand(javaBinary(), null);
  }

  /** A command line on the {@code java} of the JDK at {@code javaHome}. */
  public static JvmCommand java(Path javaHome) {
    return new JvmCommand(javaBinary(javaHome), null);
  }

  /** {@code command} as it is: a script that starts a JVM itself, or a line built elsewhere. */
  public static JvmCommand command(List<String> command) {
    return new JvmCommand(null, List.copyOf(command));
  }

  /** This JVM's own {@code java} launcher. */
  public static String javaBinary() {
    return javaBinary(Path.of(System.getProperty("java.home")));
  }

  /** The {@code java} launcher of the JDK at {@code javaHome}. */
  public static String javaBinary(Path javaHome) {
    return javaHome.resolve("bin").resolve("java").toString();
  }

  /** {@code -javaagent:JAR=OPTIONS}, or {@code -javaagent:JAR} when there are no options. */
  public static String agentOption(Path agentJar, String options) {
    return "-javaagent:" + agentJar + (options == null || options.isEmpty() ? "" : "=" + options);
  }

  /** True when {@code taskset} is on the {@code PATH}, so {@link JvmCommand#cpus} can pin. */
  public static boolean canPin() {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, "taskset"))) {
        return true;
      }
    }
    return false;
  }

  public long pid() {
    return process.pid();
  }

  /** The process as the operating system sees it, e.g. for the CPU time it used. */
  public ProcessHandle handle() {
    return process.toHandle();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public int exitValue() {
    return process.exitValue();
  }

  /** What it printed to stdout (or to both streams, when they share a file) so far. */
  public String output() {
    return read(stdout);
  }

  /** What it printed to stderr so far; empty when stderr goes with stdout. */
  public String errors() {
    return read(stderr);
  }

  /**
   * Waits up to {@code timeout} for the builder's {@link JvmCommand#ready} pattern in the output;
   * empty if the time ran out or the process ended first ({@link #isAlive} tells which).
   */
  public Optional<MatchResult> awaitReady(Duration timeout) throws InterruptedException {
    if (ready == null) {
      throw new IllegalStateException("no ready pattern was given");
    }
    if (copier != null) {
      try {
        return Optional.ofNullable(readyLine.get(timeout.toNanos(), TimeUnit.NANOSECONDS));
      } catch (TimeoutException e) {
        return Optional.empty();
      } catch (ExecutionException e) {
        throw new IllegalStateException(e.getCause());
      }
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      boolean alive = process.isAlive();
      Matcher m = ready.matcher(output());
      if (m.find()) {
        return Optional.of(m.toMatchResult());
      }
      if (!alive || System.nanoTime() >= deadline) {
        return Optional.empty();
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  /** Waits for the process to end by itself; true if it did within {@code timeout}. */
  public boolean waitFor(Duration timeout) throws InterruptedException {
    boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (ended) {
      finished();
    }
    return ended;
  }

  /**
   * Sends SIGTERM, so that its shutdown hooks run, and waits up to {@code grace}; kills it if it
   * has not ended by then. True if it ended within the grace period ({@link #exitValue} is its
   * status).
   */
  public boolean stop(Duration grace) {
    process.destroy();
    try {
      if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        return true;
      }
      process.destroyForcibly().waitFor(AFTER_KILL.toMillis(), TimeUnit.MILLISECONDS);
      return false;
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      return false;
    } finally {
      finished();
    }
  }

  /** Kills it at once if it still runs (after a failure, or once {@link #stop} has been called). */
  public void kill() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
    LIVE.remove(process);
  }

  /** {@link #stop} with 10 s of grace. */
  @Override
  public void close() {
    stop(Duration.ofSeconds(10));
  }

  private void finished() {
    LIVE.remove(process);
    if (copier != null) {
      try {
        copier.join(AFTER_KILL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void copyLines(Path log, Consumer<String> each) {
    try (BufferedReader in =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      for (String line; (line = in.readLine()) != null; ) {
        out.write(line);
        out.newLine();
        out.flush();
        each.accept(line);
        if (ready != null && !readyLine.isDone()) {
          Matcher m = ready.matcher(line);
          if (m.find()) {
            readyLine.complete(m.toMatchResult());
          }
        }
      }
    } catch (IOException e) {
      // The process was stopped while its output was read: nothing more to copy.
    } finally {
      readyLine.complete(null);
    }
  }

  private static String read(Path file) {
    try {
      return file != null && Files.exists(file)
          ? Files.readString(file, StandardCharsets.UTF_8)
          : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
