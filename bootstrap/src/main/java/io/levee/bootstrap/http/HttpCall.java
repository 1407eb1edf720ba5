package io.levee.bootstrap.http;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * What Levee decided about one {@code HttpURLConnection}: the dispatcher's token (a {@link Permit},
 * a {@link Blocked} or nothing), when the call started, and whether its outcome was reported. It
 * never references the connection, so the weak map that holds it can let the connection go: the
 * body stream that copies a good answer for the last good answer is held weakly, because the JDK's
 * response stream is an inner object of its connection.
 *
 * <p>Concurrency: a connection may connect on one thread and be read or disconnected on another, so
 * {@link #finish} is a compare-and-set that lets exactly one of them report the outcome. The
 * copying body is made once, under the call's lock. Everything else is final, except the synthetic
 * response, built at most a few times on the blocked path.
 */
public final class HttpCall {
  /** The state of every connection that Levee does not track: decided once, nothing to report. */
  static final HttpCall UNTRACKED = new HttpCall(null, 0L, false, null);

  private static final AtomicIntegerFieldUpdater<HttpCall> FINISHED =
      AtomicIntegerFieldUpdater.newUpdater(HttpCall.class, "finished");

  final Object token;
  final long startNanos;
  private final boolean head;

  /**
   * The URL the application asked for, when this is an admitted {@code GET} whose resource keeps
   * last good answers; else null. Kept because a redirect followed changes the connection's URL,
   * and a blocked call looks its last good answer up by the URL asked for.
   */
  final String lastGoodUrl;

  private volatile int finished;
  private volatile SyntheticResponse response;

  /** Whether the body was offered for the last good answer; guarded by this. */
  private boolean bodyOffered;

  /**
   * The copy of the body for the last good answer, or null when it is not kept; guarded by this.
   * Held strongly: it references neither the connection nor its stream.
   */
  private BodyTee bodyCopy;

  /** The JDK's response stream that {@link #bodyCopy} copies; guarded by this. */
  private WeakReference<InputStream> liveBody;

  /** The stream that copies it, as last handed out; guarded by this. */
  private WeakReference<TeeInputStream> copyingBody;

  HttpCall(Object token, long startNanos, boolean head, String lastGoodUrl) {
    this.token = token;
    this.startNanos = startNanos;
    this.head = head;
    this.lastGoodUrl = lastGoodUrl;
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

  /**
   * The body to hand the application for the response stream {@code live}: the stream that copies
   * it for the last good answer, or {@code live} itself when it is not copied; null when the body
   * has not been offered for the last good answer yet ({@link #offer}). The JDK returns its one
   * stream on every {@code getInputStream}, and so does this: the same copying stream while the
   * application holds it, else a new one that goes on copying into the same copy (which therefore
   * sees every byte the application read, in order, as it never gets {@code live} itself).
   */
  synchronized InputStream offered(InputStream live) {
    if (!bodyOffered) {
      return null;
    }
    if (bodyCopy == null || liveBody.get() != live) {
      return live;
    }
    TeeInputStream tee = copyingBody.get();
    if (tee == null) {
      tee = new TeeInputStream(live, bodyCopy);
      copyingBody = new WeakReference<TeeInputStream>(tee);
    }
    return tee;
  }

  /**
   * Offers the body {@code live} once to {@code keeper} (null: it is not kept) and returns what to
   * hand the application, as {@link #offered}.
   */
  synchronized InputStream offer(InputStream live, LastGoodKeeper keeper) {
    if (!bodyOffered) {
      bodyOffered = true;
      if (keeper != null) {
        bodyCopy = new BodyTee(keeper);
        liveBody = new WeakReference<InputStream>(live);
        copyingBody = new WeakReference<TeeInputStream>(null);
      }
    }
    return offered(live);
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
