package io.levee.it.corpus;

import io.levee.it.support.ForkedApp;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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

  private final Process process;
  private final Path stdout;
  private final Path stderr;
  private final int port;

  private BootApp(Process process, Path stdout, Path stderr) {
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
    this.port = awaitStarted();
  }

  /** Starts {@code jar} for {@code subject} the given way; returns once it serves requests. */
  static BootApp start(Path jar, String subject, Way way) {
    String name = subject + "-" + way.name().toLowerCase();
    Path out = Way.dir().resolve(name + ".stdout.log");
    Path err = Way.dir().resolve(name + ".stderr.log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // As the other forked applications: a small heap and one GC thread, for a 2-core machine; and
    // the C1 compiler only, as spring-boot:run long started applications, which halves the start.
    command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    command.addAll(way.jvmOptions(subject));
    command.addAll(List.of("-jar", jar.toString(), "--server.port=0"));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(Way.dir().toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    try {
      return new BootApp(Processes.hermetic(builder).start(), out, err);
    } catch (IOException e) {
      throw new IllegalStateException("cannot start " + command, e);
    }
  }

  int port() {
    return port;
  }

  String stdout() {
    return Processes.read(stdout);
  }

  String stderr() {
    return Processes.read(stderr);
  }

  /** Stops it as a service manager would, with SIGTERM, so that Boot shuts down gracefully. */
  int stop() {
    return Processes.stop(process, Duration.ofSeconds(30), this);
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
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
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      String log = stdout();
      Matcher port = PORT.matcher(log);
      if (STARTED.matcher(log).find() && port.find()) {
        return Integer.parseInt(port.group(1));
      }
      if (!process.isAlive()) {
        throw failure("exited with status " + process.exitValue() + " before it started");
      }
      ForkedApp.sleep(100);
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
