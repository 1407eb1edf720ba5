package io.levee.bootstrap.jdbc;

/**
 * A JDBC call's token when the exit needs more than the permit: the start, and what the enter
 * changed or learned (a query timeout it set, a batch's SQL to forget, the URL of a data source).
 * Only such calls allocate one; every other call carries the engine's preallocated permit alone.
 */
public final class JdbcCall {
  /**
   * The token of a {@code getConnection} nested in another: no decision, but a depth to give back.
   */
  public static final JdbcCall NESTED = new JdbcCall(null, 0L, false, false, null);

  public final Object token;
  public final long start;
  public final boolean batch;
  public final boolean timeoutSet;
  public final String url;

  public JdbcCall(Object token, long start, boolean batch, boolean timeoutSet, String url) {
    this.token = token;
    this.start = start;
    this.batch = batch;
    this.timeoutSet = timeoutSet;
    this.url = url;
  }
}
