package io.levee.soak;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;

/**
 * The traffic of the soak: half orders (servlet and JDBC, twenty tenants), three tenths quotes
 * (servlet and an outbound call to the partner), two tenths computations (servlet and CPU), so that
 * every integration of the agent sees calls while it is attached, reloaded and detached. The same
 * mix measures the capacity and then loads the application, so "70 % of capacity" means 70 % of
 * this mix.
 */
final class SoakMix {
  /**
   * A request unanswered after this counts as failed. Generous on purpose: on a shared machine the
   * application can stall for seconds, and a client that gives up early leaves the server working
   * on requests nobody waits for, a backlog that then never drains; the latency columns show the
   * stalls.
   */
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  private static final int COMPUTE_ROUNDS = 3_000;
  private static final int TENANTS = 20;
  private static final String[] PATHS = {
    "/api/orders", "/api/quote", "/api/orders", "/api/compute?rounds=" + COMPUTE_ROUNDS,
    "/api/orders", "/api/quote", "/api/orders", "/api/compute?rounds=" + COMPUTE_ROUNDS,
    "/api/orders", "/api/quote"
  };

  private SoakMix() {}

  /** The {@code n}th request of the mix. */
  static HttpRequest request(String base, long n) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path(n))).timeout(TIMEOUT);
    String tenant = tenant(n);
    if (tenant != null) {
      b.header("X-Tenant-ID", tenant);
    }
    return b.GET().build();
  }

  /** The path (and query) of the {@code n}th request. */
  static String path(long n) {
    return PATHS[(int) (n % PATHS.length)];
  }

  /** The tenant header of the {@code n}th request, or null if it has none. */
  static String tenant(long n) {
    return path(n).startsWith("/api/orders") ? "tenant-" + (n / PATHS.length) % TENANTS : null;
  }

  /** What the mix is, for the report. */
  static String describe() {
    return "50% GET /api/orders (20 tenants, H2), 30% GET /api/quote (partner over"
        + " HttpURLConnection), 20% GET /api/compute?rounds="
        + COMPUTE_ROUNDS
        + " (CPU)";
  }
}
