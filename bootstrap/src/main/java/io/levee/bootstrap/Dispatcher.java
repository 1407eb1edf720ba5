package io.levee.bootstrap;

import io.levee.bootstrap.http.LastGoodKeeper;

/**
 * What the agent plugs into the bridge. Every enter method returns a token: {@code null} when Levee
 * does not track the call (no resource matches, or the agent is off), a {@link Blocked} when the
 * call must not run, or a {@link Permit} that must be handed back to {@link #exit} exactly once.
 *
 * <p>This base class is the no-op: it admits everything and tracks nothing. It is what the bridge
 * holds before the agent has started and after it detached.
 */
public class Dispatcher {
  public static final Dispatcher NOOP = new Dispatcher();

  /**
   * The status of a call given up before its outcome was known (a connection disconnected or
   * garbage-collected unread): its permits go back, and it counts as neither success nor failure.
   */
  public static final int STATUS_ABANDONED = -2;

  /**
   * An inbound request at its outermost dispatch. {@code request} is the container's request
   * object, read through {@code keys} (what the agent gave the servlet calls of the request's API)
   * only when a matched rule keys on a header, a parameter or the client address.
   */
  public Object servletEnter(String method, String path, Object request, Object keys) {
    return null;
  }

  /** An outbound {@code HttpURLConnection} call; {@code url} is {@code URL.toString()}. */
  public Object httpEnter(String method, String url) {
    return null;
  }

  /**
   * Whether the resource that admitted {@code permit} keeps last good answers ({@code
   * on-block.fallback.last-good}). Asked for every admitted outbound call that has a response, so
   * it must be cheap; only when it says yes do the client's calls gather what {@link #lastGood}
   * needs.
   */
  public boolean keepsLastGood(Object permit) {
    return false;
  }

  /**
   * Where the body of an admitted call's response goes to become the last good answer of {@code
   * url}, or null when this answer is not to be kept (not a {@code GET}, not 2xx, {@code
   * Cache-Control: no-store} or {@code private}, announced longer than the bound). {@code url} is
   * the one the call was decided for ({@link #httpEnter}), not where a redirect led; {@code
   * headers} are the response's as the application sees them (after a client's own decompression),
   * as name, value, name, value...
   */
  public LastGoodKeeper lastGood(
      Object permit, String method, String url, int status, String[] headers) {
    return null;
  }

  /**
   * A statement execution; {@code sql} may be null when it is not known (after a runtime attach).
   */
  public Object jdbcEnter(String jdbcUrl, String sql) {
    return null;
  }

  /** Acquiring a connection ({@code Driver.connect}, {@code DataSource.getConnection}). */
  public Object jdbcConnect(String jdbcUrl) {
    return null;
  }

  /**
   * Whether a rule would decide acquiring a connection to {@code jdbcUrl}, asked before a costly
   * test that only matters then (whether a pool is refilling itself). Decides nothing.
   */
  public boolean jdbcConnectMatches(String jdbcUrl) {
    return false;
  }

  /**
   * Whether deciding a statement on the database at {@code jdbcUrl} (null: not known yet) may need
   * its SQL, asked when a statement is prepared: only then is its SQL remembered for its execution.
   */
  public boolean jdbcReadsSql(String jdbcUrl) {
    return false;
  }

  /**
   * A call of a method woven for a {@code method} resource; {@code site} is the number the agent
   * gave that method when it wove it.
   */
  public Object methodEnter(int site) {
    return null;
  }

  /**
   * What a call of {@code site} that {@code blocked} refused throws: the exception its resource
   * names ({@code on-block.throw}), made for the method's class loader. Never null.
   */
  public Throwable methodBlocked(int site, Blocked blocked) {
    return new java.util.concurrent.RejectedExecutionException(blocked.message);
  }

  /** The outcome of a method call {@link #methodEnter} admitted; like {@link #exit}. */
  public void methodExit(Object token, long startNanos, Throwable error) {
    exit(token, startNanos, -1, error);
  }

  /**
   * The start of a call this dispatcher admitted with {@code permit} just now, on this thread, in
   * the nanos {@link #exit} takes. The engine answers with its decision's own clock read, or 0 when
   * nothing times the call; this default reads the clock.
   */
  public long start(Object permit) {
    return System.nanoTime();
  }

  /**
   * The outcome of an admitted call: {@code status} is the HTTP status or -1, {@code error} the
   * exception that ended the call or null. Called once per permit.
   */
  public void exit(Object token, long startNanos, int status, Throwable error) {}

  /**
   * What a request that {@code permit} admitted answers instead of the 5xx it ended with, because
   * {@code refused} refused an outbound call it made ({@code backpressure}); null to leave the
   * application's answer alone (monitor mode). Called at most once per request, off the hot path.
   */
  public Blocked backpressure(Object permit, Blocked refused) {
    return null;
  }

  /**
   * The bridge reports here an exception it caught from the dispatcher, so the agent can log it.
   */
  public void internalError(Throwable error) {}
}
