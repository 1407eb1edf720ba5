package io.levee.bootstrap.jdbc;

/**
 * Whether a physical connect outside any application acquisition is a connection pool filling
 * itself on one of its own threads (HikariCP's connection adder, DBCP's evictor, c3p0's helpers).
 *
 * <p>Such a connect is the pool's business, not a call of the application: the application's
 * acquisition is the pool's {@code getConnection}, which is decided. Refusing the refill starves
 * the pool: after an outage the half-open probes then wait on an empty pool, fail, and re-open the
 * breaker until a refill attempt happens to fall into a half-open period.
 *
 * <p>Cost: one stack walk per connect made outside an acquisition (which only pools' background
 * threads and direct {@code DriverManager} users do) and only when a rule would decide it; tens of
 * microseconds on a deep stack, against a connect's milliseconds.
 */
public final class PoolRefill {
  /** Packages of the pools whose own threads open connections in the background. */
  private static final String[] POOL_PACKAGES = {
    "com.zaxxer.hikari.",
    "org.apache.commons.dbcp.",
    "org.apache.commons.dbcp2.",
    "org.apache.tomcat.dbcp.",
    "org.apache.tomcat.jdbc.pool.",
    "com.mchange.v2.c3p0.",
    "com.mchange.v2.resourcepool.",
    "com.alibaba.druid.pool.",
    "oracle.ucp.",
    "org.vibur.dbcp.",
    "org.apache.geronimo.connector.",
  };

  private PoolRefill() {}

  /** True when a pool's code is on the current thread's stack. */
  public static boolean onThisThread() {
    StackTraceElement[] frames = new Throwable().getStackTrace();
    for (int i = 0; i < frames.length; i++) {
      String type = frames[i].getClassName();
      for (int p = 0; p < POOL_PACKAGES.length; p++) {
        if (type.startsWith(POOL_PACKAGES[p])) {
          return true;
        }
      }
    }
    return false;
  }
}
