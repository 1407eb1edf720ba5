package io.levee.it.corpus;

import io.levee.testkit.JvmCommand;
import io.levee.testkit.JvmProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Spring Boot executable jar started as its users start it, {@code java -jar app.jar}, on a free
 * port it picks itself ({@code --server.port=0}) and then logs; with the way's JVM options.
 */
final class BootApp implements AutoCloseable {
  /** Boot 2.7 logs {@code port(s): 8080 (http)}, Boot 3 {@code port 8080 (http)}. */
  private static final Pattern PORT =
      Pattern.compile("Tomcat started on port(?:\\(s\\):)? (\\d+) ");

  private static final Pattern STARTED = Pattern.compile("(?m) : Started \\S+ in ");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private final JvmProcess process;
  private final Path stdout;
  private final int port;

  /** The length of stdout's whole lines when {@link #stop()} sent SIGTERM; -1 before. */
  private int stoppedAt = -1;

  private BootApp(JvmProcess process, Path stdout) {
    this.process = process;
    this.stdout = stdout;
    this.port = awaitStarted();
  }

  /**
   * Starts {@code jar} for {@code subject} the given way, with {@code agentOptions} added to the
   * way's agent options; returns once it serves requests.
   */
  static BootApp start(Path jar, String subject, Way way, List<String> agentOptions) {
    String name = subject + "-" + way.name().toLowerCase();
    Path out = Way.dir().resolve(name + ".stdout.log");
    Path err = Way.dir().resolve(name + ".stderr.log");
    JvmCommand jvm =
        JvmProcess.java()
            // As the other forked applications: a small heap and one GC thread, for a 2-core
            // machine; and the C1 compiler only, as spring-boot:run long started applications,
            // which halves the start.
            .options("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
            .options(way.jvmOptions(subject, agentOptions))
            .jar(jar)
            .args("--server.port=0")
            .directory(Way.dir())
            .withoutEnv(Processes.NOT_HERMETIC)
            .noInput()
            .output(out, err)
            .ready(STARTED);
    try {
      return new BootApp(jvm.start(), out);
    } catch (IOException e) {
      throw new IllegalStateException("cannot start " + jvm.commandLine(), e);
    }
  }

  int port() {
    return port;
  }

  String stdout() {
    return process.output();
  }

  String stderr() {
    return process.errors();
  }

  /** Stops it as a service manager would, with SIGTERM, so that Boot shuts down gracefully. */
  int stop() {
    String before = stdout();
    stoppedAt = before.lastIndexOf('\n') + 1;
    return Processes.stop(process, Duration.ofSeconds(30), this);
  }

  /** The log written before {@link #stop()}; all of it if not stopped. */
  String stdoutBeforeStop() {
    String all = stdout();
    return stoppedAt < 0 ? all : all.substring(0, Math.min(stoppedAt, all.length()));
  }

  /** The log written from {@link #stop()} on; empty if not stopped. */
  String stdoutFromStop() {
    String all = stdout();
    return stoppedAt < 0 ? "" : all.substring(Math.min(stoppedAt, all.length()));
  }

  @Override
  public void close() {
    process.kill();
  }

  @Override
  public String toString() {
    return "java -jar (pid " + process.pid() + ", logs " + stdout + ")";
  }

  /**
   * Waits for Boot's {@code Started ... in} line, logged once the context is refreshed and Tomcat
   * listens, and reads the port from Tomcat's line before it.
   */
  private int awaitStarted() {
    Optional<MatchResult> started;
    try {
      started = process.awaitReady(START_TIMEOUT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new IllegalStateException(e);
    }
    if (started.isPresent()) {
      Matcher port = PORT.matcher(stdout());
      if (port.find()) {
        return Integer.parseInt(port.group(1));
      }
      close();
      throw failure("logged that it started but no port");
    }
    if (!process.isAlive()) {
      throw failure("exited with status " + process.exitValue() + " before it started");
    }
    close();
    throw failure("did not start within " + START_TIMEOUT.toSeconds() + " s");
  }

  private IllegalStateException failure(String what) {
    return new IllegalStateException(
        String.format(
            "%s %s%n--- stdout%n%s%n--- stderr%n%s", this, what, tail(stdout()), stderr()));
  }

  private static String tail(String log) {
    return log.length() <= 6000 ? log : "..." + log.substring(log.length() - 6000);
  }
}
