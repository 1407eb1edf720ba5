package io.levee.load.bench;

import io.levee.testkit.JvmCommand;
import io.levee.testkit.JvmProcess;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The application under test in its own JVM, optionally pinned to its own CPUs with {@code
 * taskset}, with the Levee agent when asked. Started, waited for until it answers, and killed by
 * its pid.
 */
final class AppProcess implements AutoCloseable {
  /** The JVM flags of every application run, whatever the contender. */
  static final List<String> JVM_FLAGS =
      List.of("-Xms512m", "-Xmx512m", "-XX:+UseSerialGC", "-Dhttp.maxConnections=200");

  private final JvmProcess process;
  final int port;

  private AppProcess(JvmProcess process, int port) {
    this.process = process;
    this.port = port;
  }

  /**
   * The command line, for the report as well as for starting; {@code agent} is the {@code
   * -javaagent} option ({@link #agentArg}) or null.
   */
  static JvmCommand command(
      String cpus, String contender, int port, int stubPort, String agent, Path log) {
    JvmCommand jvm = JvmProcess.java().cpus(cpus).options(JVM_FLAGS);
    // Extra flags for an investigation (GC or safepoint logs, say), never in a reported run.
    String extra = System.getenv("LEVEE_BENCH_APP_FLAGS");
    if (extra != null && !extra.isBlank()) {
      jvm.options(List.of(extra.trim().split("\\s+")));
    }
    jvm.systemProperty("csp.sentinel.log.dir", log.getParent().resolve("sentinel-logs").toString());
    if (agent != null) {
      jvm.options(agent);
    }
    return jvm.main(System.getProperty("java.class.path"), "io.levee.load.app.BenchApp")
        .args(Integer.toString(port), Integer.toString(stubPort), contender);
  }

  /** Starts it, its output appended to {@code log}, and waits until it answers. */
  static AppProcess start(JvmCommand jvm, int port, Path log)
      throws IOException, InterruptedException {
    AppProcess app = new AppProcess(jvm.appendOutput(log).start(), port);
    app.awaitReady();
    return app;
  }

  private void awaitReady() throws IOException, InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    HttpRequest req =
        HttpRequest.newBuilder(URI.create(base() + "/bench/limit"))
            .timeout(Duration.ofSeconds(1))
            .build();
    long until = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < until) {
      if (!process.isAlive()) {
        throw new IOException("the application exited with " + process.exitValue());
      }
      try {
        if (client.send(req, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    close();
    throw new IOException("the application did not answer within 60 s");
  }

  String base() {
    return "http://127.0.0.1:" + port;
  }

  /** GET a harness path of the application, e.g. {@code /bench/static?limit=4}. */
  String get(String path) throws IOException, InterruptedException {
    HttpRequest req = HttpRequest.newBuilder(URI.create(base() + path)).build();
    return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString()).body();
  }

  @Override
  public void close() {
    process.close();
  }

  /** The {@code -javaagent} option: the agent's log in {@code log}, and the rules if any. */
  static String agentArg(String jar, File rules, int httpPort, Path log) {
    String options = "log-file=" + log;
    if (rules != null) {
      options += ",rules=" + rules + ",http=127.0.0.1:" + httpPort;
    }
    return JvmProcess.agentOption(Path.of(jar), options);
  }
}
