package io.levee.demo.driver;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Warms the application up (JIT, connections, H2) and measures what one computation costs on this
 * machine, so that "CPU overload" overloads a laptop and a 64-core server alike.
 */
final class Warmup {
  /** The CPU time one {@code /api/compute} request should take. */
  static final double TARGET_MILLIS = 40;

  private static final int PROBE_ROUNDS = 40_000;
  private static final Pattern CPU = Pattern.compile("cpu;dur=([0-9.]+)");

  private final HttpClient client;
  private final String base;

  Warmup(HttpClient client, String base) {
    this.client = client;
    this.base = base;
  }

  record Compute(int rounds, double capacityPerSecond) {}

  /** Warms up, then sizes a computation for an application that may use {@code cores} cores. */
  Compute run(int cores) throws IOException, InterruptedException {
    for (int i = 0; i < 30; i++) {
      get("/api/orders", "acme");
      get("/api/quote", null);
      get("/api/compute?rounds=" + PROBE_ROUNDS / 2, null);
    }
    get("/api/report", null);
    // CPU time as the application measures it, which other processes on the machine cannot inflate.
    double[] millis = new double[9];
    for (int i = 0; i < millis.length; i++) {
      millis[i] = cpuMillis(get("/api/compute?rounds=" + PROBE_ROUNDS, null));
    }
    Arrays.sort(millis);
    double median = Math.max(millis[millis.length / 2], 0.1);
    int rounds = (int) Math.max(1_000, Math.min(5_000_000, PROBE_ROUNDS * TARGET_MILLIS / median));
    return new Compute(rounds, cores * 1_000 / TARGET_MILLIS);
  }

  private static double cpuMillis(HttpResponse<?> response) {
    Matcher m = CPU.matcher(response.headers().firstValue("Server-Timing").orElse(""));
    return m.find() ? Double.parseDouble(m.group(1)) : TARGET_MILLIS;
  }

  private HttpResponse<Void> get(String path, String tenant)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10));
    if (tenant != null) {
      b.header("X-Tenant-ID", tenant);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.discarding());
  }
}
