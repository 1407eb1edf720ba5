package io.levee.bootstrap.http;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * What Levee decided about one {@code HttpURLConnection}: the dispatcher's token (a {@link Permit},
 * a {@link Blocked} or nothing), when the call started, and whether its outcome was reported. It
 * never references the connection, so the weak map that holds it can let the connection go.
 *
 * <p>Concurrency: a connection may connect on one thread and be read or disconnected on another, so
 * {@link #finish} is a compare-and-set that lets exactly one of them report the outcome. Everything
 * else is final, except the synthetic response, built at most a few times on the blocked path.
 */
public final class HttpCall {
  /** The state of every connection that Levee does not track: decided once, nothing to report. */
  static final HttpCall UNTRACKED = new HttpCall(null, 0L, false);

  private static final AtomicIntegerFieldUpdater<HttpCall> FINISHED =
      AtomicIntegerFieldUpdater.newUpdater(HttpCall.class, "finished");

  final Object token;
  final long startNanos;
  private final boolean head;
  private volatile int finished;
  private volatile SyntheticResponse response;

  HttpCall(Object token, long startNanos, boolean head) {
    this.token = token;
    this.startNanos = startNanos;
    this.head = head;
  }

  boolean tracked() {
    return token instanceof Permit;
  }

  Blocked blocked() {
    return token instanceof Blocked ? (Blocked) token : null;
  }

  boolean fallback() {
    return token instanceof Blocked && ((Blocked) token).fallback;
  }

  /** Reports the outcome of an admitted call; only the first call of this method does anything. */
  void finish(int status, Throwable error) {
    if (tracked() && FINISHED.compareAndSet(this, 0, 1)) {
      Levee.exit(token, startNanos, status, error);
    }
  }

  boolean finished() {
    return finished != 0;
  }

  SyntheticResponse response() {
    SyntheticResponse r = response;
    if (r == null) {
      r = new SyntheticResponse(HttpAnswer.of((Blocked) token), head);
      response = r;
    }
    return r;
  }
}
