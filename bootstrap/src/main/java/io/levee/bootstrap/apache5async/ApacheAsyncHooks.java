package io.levee.bootstrap.apache5async;

import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.SiteCalls;

/**
 * What the woven methods of Apache HttpClient 5's async client call; the logic is in {@link
 * AsyncExchanges}, the client-typed part in the agent's {@link ApacheAsyncCalls}. Each hook catches
 * its own errors, reports them and changes nothing: the call then runs as it would without Levee.
 *
 * <ul>
 *   <li>{@code CloseableHttpAsyncClient.doExecute}, which every public {@code execute} calls:
 *       {@link #execute} decides, the woven code skips the original for a blocked call, and {@link
 *       #executed} returns the future (a failed or fallback one when blocked).
 *   <li>{@code BasicFuture.completed/failed/cancel}: the outcome of the returned future.
 *   <li>{@code AsyncResponseConsumer.consumeResponse}: the response's status.
 *   <li>{@code HttpClientContext.setExchangeId} and {@code AsyncConnectionEndpoint.execute}: the
 *       read timeout, on the connection that runs the exchange.
 * </ul>
 */
public final class ApacheAsyncHooks {
  private ApacheAsyncHooks() {}

  /** Where the agent installs the factory of the calls for each woven client class. */
  public static SiteCalls<ApacheAsyncCalls> calls() {
    return AsyncExchanges.CALLS;
  }

  public static Object execute(Class<?> site, Object target, Object producer, Object consumer) {
    try {
      return AsyncExchanges.enter(site, target, producer, consumer);
    } catch (Throwable t) {
      HookErrors.report(t);
      return null;
    }
  }

  public static Object executed(
      Object token,
      Class<?> site,
      Object producer,
      Object consumer,
      Object context,
      Object callback,
      Object returned) {
    try {
      return AsyncExchanges.exit(token, site, producer, consumer, context, callback, returned);
    } catch (Throwable t) {
      HookErrors.report(t);
      return returned;
    }
  }

  public static Throwable executeFailed(
      Object token,
      Class<?> site,
      Object producer,
      Object consumer,
      Object context,
      Object callback,
      Throwable thrown) {
    try {
      AsyncExchanges.thrown(token, thrown);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return thrown;
  }

  // BasicFuture: completed(T), failed(Exception), cancel(boolean).

  public static Object completing(Object future, Object result) {
    try {
      AsyncExchanges.completing(future, result);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return null;
  }

  public static Object failing(Object future, Object error) {
    try {
      AsyncExchanges.failing(future, (Throwable) error);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return null;
  }

  public static Object cancelling(Object future) {
    try {
      AsyncExchanges.cancelling(future);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return null;
  }

  /** The end of {@code completed}, {@code failed} and {@code cancel}. */
  public static Object settled(Object token, Object future, Object returned) {
    try {
      AsyncExchanges.settled(future);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return returned;
  }

  /** The same, when the caller's callback threw out of them. */
  public static Throwable settleFailed(Object token, Object future, Throwable thrown) {
    settled(token, future, null);
    return thrown;
  }

  /** {@code AsyncResponseConsumer.consumeResponse(response, entityDetails, ...)}. */
  public static Object response(Object consumer, Object response, Object entity) {
    try {
      AsyncExchanges.response(consumer, response, entity);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return null;
  }

  /** {@code HttpClientContext.setExchangeId}. */
  public static Object exchange(Object context) {
    try {
      AsyncExchanges.exchange(context);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return null;
  }

  /** {@code AsyncConnectionEndpoint.execute(id, handler, pushHandlerFactory, context)}. */
  public static Object executing(Object endpoint, Object context) {
    try {
      AsyncExchanges.executing(endpoint, context);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return null;
  }
}
