package io.levee.demo.driver;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;

/**
 * Warms the application up (JIT, connections, H2) and measures what one computation costs on this
 * machine, so that "CPU overload" overloads a laptop and a 64-core server alike.
 */
final class Warmup {
  /** The CPU time one {@code /api/compute} request should take. */
  static final double TARGET_MILLIS = 40;
  private static final int PROBE_ROUNDS = 40_000;

  private final HttpClient client;
  private final String base;

  Warmup(HttpClient client, String base) {
    this.client = client;
    this.base = base;
  }

  record Compute(int rounds, double capacityPerSecond) {}

  Compute run() throws IOException, InterruptedException {
    for (int i = 0; i < 20; i++) {
      get("/api/orders", "acme");
      get("/api/quote", null);
      get("/api/compute?rounds=" + PROBE_ROUNDS / 4, null);
    }
    get("/api/report", null);
    double[] millis = new double[7];
    for (int i = 0; i < millis.length; i++) {
      long start = System.nanoTime();
      get("/api/compute?rounds=" + PROBE_ROUNDS, null);
      millis[i] = (System.nanoTime() - start) / 1e6;
    }
    Arrays.sort(millis);
    double median = Math.max(millis[millis.length / 2], 0.5);
    int rounds = (int) Math.max(1_000, Math.min(5_000_000, PROBE_ROUNDS * TARGET_MILLIS / median));
    int cores = Runtime.getRuntime().availableProcessors();
    return new Compute(rounds, cores * 1_000 / TARGET_MILLIS);
  }

  private void get(String path, String tenant) throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10));
    if (tenant != null) {
      b.header("X-Tenant-ID", tenant);
    }
    client.send(b.build(), HttpResponse.BodyHandlers.discarding());
  }
}
