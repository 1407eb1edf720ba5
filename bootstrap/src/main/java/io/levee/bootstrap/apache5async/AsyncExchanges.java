package io.levee.bootstrap.apache5async;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.CallDepth;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Kind;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.SiteCalls;
import io.levee.bootstrap.WeakIdentityMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * The logic behind {@link ApacheAsyncHooks}: one decision per {@code doExecute}, its outcome when
 * the future that {@code doExecute} returned completes, fails or is cancelled.
 *
 * <p>An admitted call is found again through weak identity maps, never through fields (impossible
 * after a runtime attach) nor through the thread (the response arrives on the I/O reactor's): the
 * returned future (its completion reports the outcome), the caller's response consumer (its {@code
 * consumeResponse} gives the status) and the client's {@code HttpClientContext} (its connection
 * gets the read timeout). The context is often made inside {@code doExecute}; it is linked to the
 * call when the client sets its exchange id, which both clients do on the caller's thread before
 * they ask for a connection, so a thread-local holds the call for the length of {@code doExecute}
 * only.
 *
 * <p>A future that is garbage collected before it completed (a client dropped with calls in flight)
 * returns its permit at the next decision; the future map is therefore only ever added to with
 * {@code putIfAbsent} and drained with {@code pollCollected}.
 */
final class AsyncExchanges {
  static final SiteCalls<ApacheAsyncCalls> CALLS = new SiteCalls<ApacheAsyncCalls>(None.CALLS);

  private static final WeakIdentityMap<AsyncCall> FUTURES = new WeakIdentityMap<AsyncCall>();
  private static final WeakIdentityMap<AsyncCall> CONSUMERS = new WeakIdentityMap<AsyncCall>();
  private static final WeakIdentityMap<AsyncCall> CONTEXTS = new WeakIdentityMap<AsyncCall>();

  /** The call whose {@code doExecute} runs on this thread, while its context may get linked. */
  private static final ThreadLocal<AsyncCall> LINKING = new ThreadLocal<AsyncCall>();

  private AsyncExchanges() {}

  /**
   * Enter of {@code doExecute}: a {@link Blocked} (the woven code then skips the original), an
   * {@link AsyncCall} for an admitted call, or null for one that is not tracked.
   */
  static Object enter(Class<?> site, Object target, Object producer, Object consumer) {
    if (CallDepth.enter(Kind.HTTP) != 0) {
      return null;
    }
    releaseAbandoned();
    ApacheAsyncCalls calls = CALLS.get(site);
    String[] request = calls.request(target, producer);
    if (request == null) {
      return null;
    }
    Object token = Levee.httpEnter(request[0], request[1]);
    if (!(token instanceof Permit)) {
      return token;
    }
    AsyncCall call =
        new AsyncCall((Permit) token, Levee.start(token), calls, request[0], request[1]);
    try {
      CONSUMERS.put(consumer, call);
      if (call.permit.readTimeoutMillis > 0) {
        LINKING.set(call);
      }
    } catch (RuntimeException e) {
      call.finish(Dispatcher.STATUS_ABANDONED, null);
      throw e;
    } catch (Error e) {
      call.finish(Dispatcher.STATUS_ABANDONED, null);
      throw e;
    }
    return call;
  }

  /**
   * Exit of {@code doExecute}: the future to return. For a blocked call, one made here; for an
   * admitted one, the client's, now watched for its completion.
   */
  static Object exit(
      Object token,
      Class<?> site,
      Object producer,
      Object consumer,
      Object context,
      Object callback,
      Object returned) {
    CallDepth.exit(Kind.HTTP);
    if (token instanceof Blocked) {
      return CALLS.get(site).blocked((Blocked) token, producer, consumer, context, callback);
    }
    if (token instanceof AsyncCall) {
      LINKING.remove();
      watch((AsyncCall) token, returned);
    }
    return returned;
  }

  /** {@code doExecute} threw: the call is over before it began. */
  static void thrown(Object token, Throwable thrown) {
    CallDepth.exit(Kind.HTTP);
    if (token instanceof AsyncCall) {
      LINKING.remove();
      ((AsyncCall) token).finish(-1, thrown);
    }
  }

  private static void watch(AsyncCall call, Object returned) {
    if (!(returned instanceof Future)) {
      call.finish(Dispatcher.STATUS_ABANDONED, null);
      return;
    }
    try {
      FUTURES.putIfAbsent(returned, call);
    } catch (RuntimeException | Error e) {
      // Not watched, so nothing would ever report it: the call runs untracked.
      call.finish(Dispatcher.STATUS_ABANDONED, null);
      throw e;
    }
    // The client fails the future itself before returning when it is shut down, and a fast
    // response may complete it before this thread gets here: its completion hooks found nothing.
    settle(call, (Future<?>) returned);
    if (call.finished()) {
      FUTURES.remove(returned);
    }
  }

  // The future's completion, on whatever thread completes it. Reported at the start of
  // completed/failed/cancel, before the waiters wake and the callback runs, so a caller that
  // starts its next call from there finds the permit back; the end of those methods catches a
  // completion that raced with watch().

  // Every future of httpcore5 passes here, most of them not a watched call's (the pool's own
  // leases): an empty map answers without a lookup, and a call leaves the map when it finishes.

  static void completing(Object future, Object result) {
    AsyncCall call = FUTURES.isEmpty() ? null : FUTURES.get(future);
    if (call != null) {
      call.completed(result);
      FUTURES.remove(future);
    }
  }

  static void failing(Object future, Throwable error) {
    AsyncCall call = FUTURES.isEmpty() ? null : FUTURES.get(future);
    if (call != null) {
      call.finish(call.status, error);
      FUTURES.remove(future);
    }
  }

  static void cancelling(Object future) {
    AsyncCall call = FUTURES.isEmpty() ? null : FUTURES.get(future);
    if (call != null) {
      call.finish(Dispatcher.STATUS_ABANDONED, null);
      FUTURES.remove(future);
    }
  }

  static void settled(Object future) {
    AsyncCall call = FUTURES.isEmpty() ? null : FUTURES.get(future);
    if (call != null) {
      if (!call.finished()) {
        settle(call, (Future<?>) future);
      }
      if (call.finished()) {
        FUTURES.remove(future);
      }
    }
  }

  /** Reports the outcome of a done future from its state; nothing if it is not done. */
  private static void settle(AsyncCall call, Future<?> future) {
    if (!future.isDone()) {
      return;
    }
    if (future.isCancelled()) {
      call.finish(Dispatcher.STATUS_ABANDONED, null);
      return;
    }
    Object result;
    try {
      result = future.get();
    } catch (ExecutionException e) {
      call.finish(call.status, e.getCause() != null ? e.getCause() : e);
      return;
    } catch (CancellationException e) {
      call.finish(Dispatcher.STATUS_ABANDONED, null);
      return;
    } catch (InterruptedException e) {
      // A done future does not wait; keep the caller's interrupt all the same.
      Thread.currentThread().interrupt();
      call.finish(Dispatcher.STATUS_ABANDONED, null);
      return;
    }
    call.completed(result);
  }

  /**
   * The head of the response that {@code consumer} is about to consume, with the details of the
   * body as the consumer gets them ({@code entity}, null without a body).
   */
  static void response(Object consumer, Object response, Object entity) {
    AsyncCall call = CONSUMERS.isEmpty() ? null : CONSUMERS.get(consumer);
    if (call != null && !call.finished()) {
      call.decoded = call.calls.decoded(response, entity);
      call.status = call.calls.status(response);
    }
  }

  /** The client set the exchange id of {@code context}: link it to the call deciding here. */
  static void exchange(Object context) {
    AsyncCall call = LINKING.get();
    if (call != null) {
      CONTEXTS.put(context, call);
    }
  }

  /** The exchange of {@code context} is about to run on the connection {@code endpoint}. */
  static void executing(Object endpoint, Object context) {
    AsyncCall call = CONTEXTS.get(context);
    if (call != null && !call.finished()) {
      call.calls.responseTimeout(endpoint, context, call.permit.readTimeoutMillis);
    }
  }

  private static void releaseAbandoned() {
    AsyncCall abandoned;
    while ((abandoned = FUTURES.pollCollected()) != null) {
      abandoned.finish(Dispatcher.STATUS_ABANDONED, null);
    }
  }

  /** The calls of a loader the agent has none for: every call untracked. */
  private static final class None implements ApacheAsyncCalls {
    static final None CALLS = new None();

    @Override
    public String[] request(Object target, Object producer) {
      return null;
    }

    @Override
    public Object blocked(
        Blocked blocked, Object producer, Object consumer, Object context, Object callback) {
      // Never reached: without a request there is no decision, so nothing is blocked.
      throw new IllegalStateException("no calls to answer a blocked call with");
    }

    @Override
    public int status(Object response) {
      return -1;
    }

    @Override
    public int statusOf(Object result) {
      return -1;
    }

    @Override
    public boolean decoded(Object response, Object entity) {
      return false;
    }

    @Override
    public void keepLastGood(
        Object result, Object permit, String method, String url, int status, boolean decoded) {}

    @Override
    public void responseTimeout(Object endpoint, Object context, int millis) {}
  }
}
