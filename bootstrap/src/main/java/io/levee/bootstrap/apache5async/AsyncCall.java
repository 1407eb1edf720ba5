package io.levee.bootstrap.apache5async;

import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One admitted call of the async client, from {@code doExecute} to the completion of the future it
 * returned: the permit, when it started, the calls of the client's loader, and the status of the
 * response once its head arrived. It never references the future, consumer or context that the weak
 * maps key it by, so they can let those go.
 *
 * <p>Concurrency: decided on the caller's thread, its status written on the I/O reactor's thread
 * when the response head arrives, finished on whichever thread completes, cancels or fails the
 * future (or on the caller's, when it was done before {@code doExecute} returned). {@link #finish}
 * is a compare-and-set, so exactly one of them reports the outcome.
 */
final class AsyncCall {
  private static final AtomicIntegerFieldUpdater<AsyncCall> FINISHED =
      AtomicIntegerFieldUpdater.newUpdater(AsyncCall.class, "finished");

  final Permit permit;
  final long startNanos;
  final ApacheAsyncCalls calls;
  final String method;
  final String url;

  /** The response's status once its head arrived; -1 before. */
  volatile int status = -1;

  /**
   * Whether the client decodes the response's body for the consumer; written with {@link #status},
   * before it.
   */
  volatile boolean decoded;

  private volatile int finished;

  AsyncCall(Permit permit, long startNanos, ApacheAsyncCalls calls, String method, String url) {
    this.permit = permit;
    this.startNanos = startNanos;
    this.calls = calls;
    this.method = method;
    this.url = url;
  }

  boolean finished() {
    return finished != 0;
  }

  /**
   * The future completed with {@code result}: its status is the response head's, or the result's
   * when no head was seen ({@code SimpleHttpResponse}, {@code Message}); a good answer to a {@code
   * GET} goes to the last-good keeper before the permit is returned, with headers that describe the
   * body as the client decoded it.
   */
  void completed(Object result) {
    if (!FINISHED.compareAndSet(this, 0, 1)) {
      return;
    }
    int s = status;
    try {
      if (s < 0) {
        s = calls.statusOf(result);
      }
      if (s >= 200 && s < 300 && "GET".equals(method) && Levee.keepsLastGood(permit)) {
        calls.keepLastGood(result, permit, method, url, s, decoded);
      }
    } finally {
      Levee.exit(permit, startNanos, s, null);
    }
  }

  /** Reports the outcome; only the first call of this method or {@link #completed} counts. */
  void finish(int status, Throwable error) {
    if (FINISHED.compareAndSet(this, 0, 1)) {
      Levee.exit(permit, startNanos, status, error);
    }
  }
}
