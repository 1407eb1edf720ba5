package io.levee.load.bench;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The application under test in its own JVM, optionally pinned to its own CPUs with {@code taskset},
 * with the Levee agent when asked. Started, waited for until it answers, and killed by its pid.
 */
final class AppProcess implements AutoCloseable {
  /** The JVM flags of every application run, whatever the contender. */
  static final List<String> JVM_FLAGS =
      List.of("-Xms512m", "-Xmx512m", "-XX:+UseSerialGC", "-Dhttp.maxConnections=200");

  private final Process process;
  final int port;

  private AppProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** The command line, for the report as well as for starting. */
  static List<String> command(
      String cpus, String contender, int port, int stubPort, String agent, Path log) {
    List<String> cmd = new ArrayList<>();
    if (cpus != null && !cpus.isEmpty()) {
      cmd.add("taskset");
      cmd.add("-c");
      cmd.add(cpus);
    }
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(JVM_FLAGS);
    // Extra flags for an investigation (GC or safepoint logs, say), never in a reported run.
    String extra = System.getenv("LEVEE_BENCH_APP_FLAGS");
    if (extra != null && !extra.isBlank()) {
      cmd.addAll(List.of(extra.trim().split("\\s+")));
    }
    cmd.add("-Dcsp.sentinel.log.dir=" + log.getParent().resolve("sentinel-logs"));
    if (agent != null) {
      cmd.add("-javaagent:" + agent);
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("io.levee.load.app.BenchApp");
    cmd.add(Integer.toString(port));
    cmd.add(Integer.toString(stubPort));
    cmd.add(contender);
    return cmd;
  }

  static AppProcess start(List<String> cmd, int port, Path log)
      throws IOException, InterruptedException {
    Files.createDirectories(log.getParent());
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    AppProcess app = new AppProcess(p, port);
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
    process.destroy();
    try {
      if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static String agentArg(String jar, File rules, int httpPort, Path log) {
    String arg = jar + "=log-file=" + log;
    if (rules != null) {
      arg += ",rules=" + rules + ",http=127.0.0.1:" + httpPort;
    }
    return arg;
  }
}
