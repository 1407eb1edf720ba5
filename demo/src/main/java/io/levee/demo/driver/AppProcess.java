package io.levee.demo.driver;

import io.levee.testkit.JvmCommand;
import io.levee.testkit.JvmProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The demo application in its own JVM, as in production: its class path holds Tomcat, H2 and the
 * application, nothing of Levee or of the driver; the agent comes only through {@code -javaagent}.
 * Everything it prints goes to a log file; the agent's lines ({@code [levee] ...}) also go to the
 * console until the application is ready, so the reader sees what the agent loaded. The soak
 * ({@code benchmarks/soak}) starts it the same way, with a heap of its own.
 *
 * <p>Concurrency: the launcher's output thread adds to {@code agentLines} (guarded by this) and
 * reads {@code echo}, which the caller's thread clears once the application is ready.
 */
public final class AppProcess implements AutoCloseable {
  private static final String APP_MAIN = "io.levee.demo.app.DemoApp";
  private static final Pattern READY = Pattern.compile("^READY port=(\\d+) ");

  /** The demo's heap: small, as the demo runs beside everything else on a laptop. */
  public static final List<String> DEMO_HEAP = List.of("-Xms64m", "-Xmx256m");

  private final List<String> agentLines = new ArrayList<>();
  private final PrintStream console;
  private final int cores;
  private final JvmProcess process;
  private volatile boolean echo = true;

  private AppProcess(JvmCommand jvm, Path log, PrintStream console, int cores) throws IOException {
    this.console = console;
    this.cores = cores;
    this.process = jvm.lines(log, this::line).ready(READY).start();
  }

  public static AppProcess start(
      Path demoTarget, String agentArg, String partnerUrl, Path log, PrintStream console)
      throws IOException {
    return start(demoTarget, agentArg, partnerUrl, log, console, DEMO_HEAP);
  }

  /** Starts it with {@code agentArg} (a {@code -javaagent} option, or null for none). */
  public static AppProcess start(
      Path demoTarget,
      String agentArg,
      String partnerUrl,
      Path log,
      PrintStream console,
      List<String> heap)
      throws IOException {
    JvmCommand jvm = JvmProcess.java();
    int cores = Runtime.getRuntime().availableProcessors();
    if (cores >= 2 && JvmProcess.canPin()) {
      // Half the cores for the application and the rest for the driver and the partner, so an
      // overloaded application cannot starve the load generator that measures it.
      cores /= 2;
      jvm.cpus("0-" + (cores - 1));
    }
    jvm.options(heap).options("-XX:+UseSerialGC");
    if (agentArg != null) {
      jvm.options(agentArg);
    }
    jvm.main(classPath(demoTarget), APP_MAIN).args("0", partnerUrl);
    return new AppProcess(jvm, log, console, cores);
  }

  /** Waits until the application serves requests; its port. */
  public int awaitReady(long seconds) throws InterruptedException {
    Optional<MatchResult> ready = process.awaitReady(Duration.ofSeconds(seconds));
    if (ready.isEmpty()) {
      throw new IllegalStateException("the demo application did not start; see its log");
    }
    echo = false;
    return Integer.parseInt(ready.get().group(1));
  }

  /** The cores the application may use. */
  public int cores() {
    return cores;
  }

  public long pid() {
    return process.pid();
  }

  /** The lines the agent printed so far. */
  public synchronized List<String> agentLines() {
    return List.copyOf(agentLines);
  }

  private void line(String line) {
    if (line.startsWith("[levee]")) {
      synchronized (this) {
        agentLines.add(line);
      }
      if (echo) {
        console.println("  app | " + line);
      }
    }
  }

  private static String classPath(Path demoTarget) throws IOException {
    List<String> entries = new ArrayList<>();
    try (Stream<Path> files = Files.list(demoTarget)) {
      files
          .filter(f -> f.getFileName().toString().endsWith("-app.jar"))
          .forEach(f -> entries.add(f.toString()));
    }
    if (entries.isEmpty()) {
      throw new IOException("no *-app.jar in " + demoTarget + "; build the demo module first");
    }
    entries.add(demoTarget.resolve("app-lib").resolve("*").toString());
    return String.join(java.io.File.pathSeparator, entries);
  }

  @Override
  public void close() {
    process.close();
  }
}
