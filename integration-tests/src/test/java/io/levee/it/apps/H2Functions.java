package io.levee.it.apps;

/** Java functions H2 calls by alias, so that one SQL text works on H2 and PostgreSQL. */
public final class H2Functions {
  private H2Functions() {}

  /** {@code pg_sleep(seconds)} for H2. */
  public static void pgSleep(double seconds) throws InterruptedException {
    Thread.sleep((long) (seconds * 1000));
  }

  /** {@code levee_double(x)}, the function the JDBC contract calls through a CallableStatement. */
  public static int leveeDouble(int x) {
    return 2 * x;
  }
}
