package io.levee.it.support;

import org.junit.jupiter.api.Assumptions;

/**
 * The PostgreSQL server the JDBC tests use, as {@code run-tests.sh} exports it. The tests fail when
 * it is missing, because the issue requires them; {@code LEVEE_SKIP_PG=1} opts out explicitly and
 * reports them as skipped.
 */
public final class Postgres {
  private Postgres() {}

  /** Aborts (skips) the caller when opted out; fails when the server is not configured. */
  public static void require() {
    Assumptions.assumeFalse(
        "1".equals(System.getenv("LEVEE_SKIP_PG")), "LEVEE_SKIP_PG=1: PostgreSQL tests opted out");
    if (url() == null) {
      throw new IllegalStateException(
          "LEVEE_PG_URL is not set: run ./run-tests.sh (it starts a throwaway PostgreSQL), export"
              + " LEVEE_PG_URL/LEVEE_PG_USER/LEVEE_PG_PASSWORD for a server of your own, or set"
              + " LEVEE_SKIP_PG=1 to skip the PostgreSQL tests");
    }
  }

  public static String url() {
    String url = System.getenv("LEVEE_PG_URL");
    return url == null || url.isBlank() ? null : url;
  }
}
