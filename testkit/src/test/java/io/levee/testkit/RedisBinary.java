package io.levee.testkit;

import org.junit.jupiter.api.Assumptions;

/**
 * Whether the tests that run a redis-server run: they fail without one, as the other tests that
 * need a server do, unless {@code LEVEE_SKIP_REDIS=1} skips them on purpose.
 */
final class RedisBinary {
  private RedisBinary() {}

  static void require() {
    Assumptions.assumeFalse(
        "1".equals(System.getenv("LEVEE_SKIP_REDIS")), "LEVEE_SKIP_REDIS=1: Redis tests opted out");
    if (RedisServer.binary().isEmpty()) {
      throw new IllegalStateException(
          "no redis-server: run ./run-tests.sh (it installs it), set LEVEE_REDIS_SERVER, or set"
              + " LEVEE_SKIP_REDIS=1 to skip the Redis tests");
    }
  }
}
