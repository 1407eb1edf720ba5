package io.levee.it.support;

import io.levee.testkit.RedisServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The Redis of the cluster rate-limit tests, as {@code run-tests.sh} provides it: a shared server
 * ({@code LEVEE_REDIS_URL}), and the binary ({@code LEVEE_REDIS_SERVER}, else {@code redis-server}
 * on the {@code PATH}) from which a test that stops, restarts or kills Redis forks a server of its
 * own ({@link #ownServer}). The tests fail when either is missing, because the issue requires them;
 * {@code LEVEE_SKIP_REDIS=1} opts out explicitly and reports them as skipped.
 *
 * <p>Call it from {@code @BeforeEach} or the test itself: an assumption that fails in
 * {@code @BeforeAll} skips the class without a single test, or its reason, in the report.
 */
public final class Redis {
  private Redis() {}

  /** Aborts (skips) the caller when opted out; fails when the shared server is not configured. */
  public static void require() {
    skipIfOptedOut();
    if (url() == null) {
      throw new IllegalStateException(
          "LEVEE_REDIS_URL is not set: run ./run-tests.sh (it starts a throwaway Redis), export"
              + " LEVEE_REDIS_URL=redis://host:port/0 for a server of your own, or set"
              + " LEVEE_SKIP_REDIS=1 to skip the Redis tests");
    }
  }

  /** The shared server, {@code redis://127.0.0.1:PORT/0}; null when not configured. */
  public static String url() {
    String url = System.getenv("LEVEE_REDIS_URL");
    return url == null || url.isBlank() ? null : url;
  }

  /**
   * A server of the caller's own, to {@code start()} (plain, or with {@code password}, {@code user}
   * or {@code tls}) and then to stop, restart or kill as the test needs. Aborts (skips) the caller
   * when opted out; fails when there is no redis-server binary.
   */
  public static RedisServer.Builder ownServer() {
    skipIfOptedOut();
    Path binary =
        RedisServer.binary()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "no redis-server: run ./run-tests.sh (it installs Debian's redis-server),"
                            + " set LEVEE_REDIS_SERVER to the binary, or set LEVEE_SKIP_REDIS=1"
                            + " to skip the Redis tests"));
    return RedisServer.builder().binary(binary);
  }

  private static void skipIfOptedOut() {
    Assumptions.assumeFalse(
        "1".equals(System.getenv("LEVEE_SKIP_REDIS")), "LEVEE_SKIP_REDIS=1: Redis tests opted out");
  }
}
