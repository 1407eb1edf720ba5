package io.levee.demo.driver;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The demo application in its own JVM, as in production: its class path holds Tomcat, H2 and the
 * application, nothing of Levee or of the driver; the agent comes only through {@code -javaagent}.
 * Everything it prints goes to a log file; the agent's lines ({@code [levee] ...}) also go to the
 * console until the application is ready, so the reader sees what the agent loaded.
 *
 * <p>Concurrency: one thread pumps the output; {@code ready} hands the port over to the caller.
 */
final class AppProcess implements AutoCloseable {
  private static final String APP_MAIN = "io.levee.demo.app.DemoApp";

  private final Process process;
  private final CountDownLatch ready = new CountDownLatch(1);
  private final List<String> agentLines = new ArrayList<>();
  private final int cores;
  private volatile int port;
  private volatile boolean echo = true;

  private AppProcess(Process process, int cores) {
    this.process = process;
    this.cores = cores;
  }

  /** The demo's heap: small, as the demo runs beside everything else on a laptop. */
  static final List<String> DEMO_HEAP = List.of("-Xms64m", "-Xmx256m");
  /**
   * The soak's heap: fixed, as in production. With the demo's 64 MB start the young generation
   * stayed at 28 MB of eden and 3.5 MB survivors; at 2 000 requests/s a one-second backlog
   * overflowed the survivors into the old generation, which filled in seconds, and full GCs every
   * 10-20 s (300 ms each on one core) kept the backlog alive: the bare application failed
   * requests after a stall with no agent doing anything.
   */
  static final List<String> SOAK_HEAP = List.of("-Xms256m", "-Xmx256m");

  static AppProcess start(Path demoTarget, String agentArg, String partnerUrl, Path log,
      PrintStream console) throws IOException {
    return start(demoTarget, agentArg, partnerUrl, log, console, DEMO_HEAP);
  }

  static AppProcess start(Path demoTarget, String agentArg, String partnerUrl, Path log,
      PrintStream console, List<String> heap) throws IOException {
    List<String> command = new ArrayList<>();
    int cores = Runtime.getRuntime().availableProcessors();
    if (cores >= 2 && onPath("taskset")) {
      // Half the cores for the application and the rest for the driver and the partner, so an
      // overloaded application cannot starve the load generator that measures it.
      cores /= 2;
      command.addAll(List.of("taskset", "-c", "0-" + (cores - 1)));
    }
    command.add(Java.binary());
    command.addAll(heap);
    command.add("-XX:+UseSerialGC");
    if (agentArg != null) {
      command.add(agentArg);
    }
    command.addAll(List.of("-cp", classPath(demoTarget), APP_MAIN, "0", partnerUrl));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    AppProcess app = new AppProcess(p, cores);
    Thread pump = new Thread(() -> app.pump(log, console), "app-output");
    pump.setDaemon(true);
    pump.start();
    return app;
  }

  /** Waits until the application serves requests; its port. */
  int awaitReady(long seconds) throws InterruptedException {
    if (!ready.await(seconds, TimeUnit.SECONDS) || port == 0) {
      throw new IllegalStateException("the demo application did not start; see its log");
    }
    echo = false;
    return port;
  }

  /** The cores the application may use. */
  int cores() {
    return cores;
  }

  long pid() {
    return process.pid();
  }

  /** The lines the agent printed so far. */
  synchronized List<String> agentLines() {
    return List.copyOf(agentLines);
  }

  private void pump(Path log, PrintStream console) {
    try (BufferedReader in = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(Files.newBufferedWriter(log), true)) {
      for (String line; (line = in.readLine()) != null; ) {
        out.println(line);
        if (line.startsWith("[levee]")) {
          synchronized (this) {
            agentLines.add(line);
          }
          if (echo) {
            console.println("  app | " + line);
          }
        }
        if (line.startsWith("READY port=")) {
          port = Integer.parseInt(line.substring(11, line.indexOf(' ', 11)));
          ready.countDown();
        }
      }
    } catch (IOException | RuntimeException e) {
      console.println("  (cannot read the application's output: " + e + ")");
    } finally {
      ready.countDown();
    }
  }

  private static boolean onPath(String tool) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }

  private static String classPath(Path demoTarget) throws IOException {
    List<String> entries = new ArrayList<>();
    try (Stream<Path> files = Files.list(demoTarget)) {
      files.filter(f -> f.getFileName().toString().endsWith("-app.jar"))
          .forEach(f -> entries.add(f.toString()));
    }
    if (entries.isEmpty()) {
      throw new IOException("no *-app.jar in " + demoTarget + "; build the demo module first");
    }
    entries.add(demoTarget.resolve("app-lib").resolve("*").toString());
    return String.join(java.io.File.pathSeparator, entries);
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
