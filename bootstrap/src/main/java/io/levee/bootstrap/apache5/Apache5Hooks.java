package io.levee.bootstrap.apache5;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.SiteCalls;
import io.levee.bootstrap.Sneaky;
import io.levee.bootstrap.http.BlockingClientCalls;
import io.levee.bootstrap.http.BlockingClients;

/**
 * What the woven methods of Apache HttpClient 5 classic call: {@code doExecute(HttpHost,
 * ClassicHttpRequest, HttpContext)} of every {@code
 * org.apache.hc.client5.http.impl.classic.CloseableHttpClient}, and {@code
 * HttpClientContext.getRequestConfigOrDefault()} and {@code getRequestConfig()}. The logic is in
 * {@link BlockingClients}; what needs the client's types is in the calls the agent defines beside
 * each loader's copy of the client ({@link #CALLS}). Errors of our own are reported and change
 * nothing; a blocked call's exception is thrown from the exit method on purpose.
 */
public final class Apache5Hooks {
  /** The calls of each woven class; the agent installs their factory before it weaves. */
  public static final SiteCalls<BlockingClientCalls> CALLS =
      new SiteCalls<BlockingClientCalls>(BlockingClientCalls.NONE);

  private Apache5Hooks() {}

  public static Object enter(Class<?> site, Object target, Object request) {
    try {
      return BlockingClients.enter(CALLS.get(site), target, request);
    } catch (Throwable t) {
      HookErrors.report(t);
      return null;
    }
  }

  /** Normal end, or the original skipped for a {@link Blocked} token. */
  public static Object exit(
      Object token, long start, Class<?> site, Object target, Object request, Object returned) {
    Object response = returned;
    try {
      response = BlockingClients.exit(CALLS.get(site), token, start, target, request, returned);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    if (response == null && token instanceof Blocked) {
      throw Sneaky.raise(BlockingClients.refusal((Blocked) token));
    }
    return response;
  }

  public static Throwable thrown(
      Object token, long start, Class<?> site, Object target, Object request, Throwable thrown) {
    try {
      BlockingClients.thrown(token, start, thrown);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return thrown;
  }

  /**
   * Exit of {@code getRequestConfigOrDefault()} and {@code getRequestConfig()}: the rule's timeouts
   * where the request leaves them unset.
   */
  public static Object requestConfig(Object token, Class<?> site, Object returned) {
    try {
      return BlockingClients.hasTimeouts()
          ? BlockingClients.requestConfig(CALLS.get(site), returned)
          : returned;
    } catch (Throwable t) {
      HookErrors.report(t);
      return returned;
    }
  }
}
