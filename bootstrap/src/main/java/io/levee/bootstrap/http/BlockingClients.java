package io.levee.bootstrap.http;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.CallDepth;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.Kind;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import java.io.IOException;

/**
 * The logic behind the hooks of a blocking client's execute method ({@code doExecute} of Apache
 * HttpClient 4 and 5 classic), which every public {@code execute} form reaches, on the caller's
 * thread, before anything is taken from the connection pool.
 *
 * <p>One decision per call: the outermost woven method on the thread decides ({@code Kind.HTTP},
 * shared with {@code HttpURLConnection}, so a client layered on another is counted once). A blocked
 * call never runs the method: its exit answers with the fallback in the client's own type, or the
 * hook throws the {@code levee:} {@link IOException} the method declares. An admitted call reports
 * its outcome when the method returns (the status: the headers have arrived, the body is the
 * application's to read) or throws.
 *
 * <p>Timeouts: while an admitted call whose rule sets timeouts runs, the thread remembers its
 * permit ({@link #requestConfig}), so the client's reads of its request configuration on that
 * thread get the rule's timeouts where the configuration leaves them unset. It is forgotten when
 * the call ends, so nothing of the application stays referenced from the thread.
 */
public final class BlockingClients {
  /** The admitted call running on this thread, if its rule sets timeouts. */
  private static final ThreadLocal<Current> CURRENT = new ThreadLocal<Current>();

  private BlockingClients() {}

  /** Enter of the execute method: the token, or null for a nested or untracked call. */
  public static Object enter(BlockingClientCalls calls, Object target, Object request) {
    if (CallDepth.enter(Kind.HTTP) != 0) {
      return null;
    }
    String url = calls.url(target, request);
    if (url == null) {
      return null;
    }
    Object token = Levee.httpEnter(calls.method(request), url);
    if (token instanceof Permit) {
      Permit permit = (Permit) token;
      if (permit.connectTimeoutMillis > 0 || permit.readTimeoutMillis > 0) {
        remember(permit);
      }
    }
    return token;
  }

  /**
   * Exit of the execute method, or of its skip: what it returns. For a blocked call, the fallback
   * response, or null when there is none (the hook then throws {@link #refusal}).
   */
  public static Object exit(
      BlockingClientCalls calls,
      Object token,
      long start,
      Object target,
      Object request,
      Object response) {
    CallDepth.exit(Kind.HTTP);
    if (token instanceof Blocked) {
      Blocked blocked = (Blocked) token;
      return blocked.fallback ? calls.fallback(HttpAnswer.of(blocked)) : null;
    }
    if (!(token instanceof Permit)) {
      return response;
    }
    forget();
    int status = Dispatcher.STATUS_ABANDONED;
    try {
      status = calls.status(response);
    } finally {
      Levee.exit(token, start, status, null);
    }
    if (status >= 200 && status < 300 && Levee.keepsLastGood(token)) {
      keepLastGood(calls, token, target, request, response, status);
    }
    return response;
  }

  /** The execute method threw {@code thrown}. */
  public static void thrown(Object token, long start, Throwable thrown) {
    CallDepth.exit(Kind.HTTP);
    if (token instanceof Permit) {
      forget();
      Levee.exit(token, start, -1, thrown);
    }
  }

  /** What a blocked call without a fallback throws: the exception its callers handle. */
  public static IOException refusal(Blocked blocked) {
    return new IOException(blocked.message);
  }

  /**
   * Exit of the client's read of its request configuration: with the current call's timeouts where
   * {@code config} leaves them unset, else {@code config}.
   */
  public static Object requestConfig(BlockingClientCalls calls, Object config) {
    Current current = CURRENT.get();
    if (current == null || current.permit == null || config == null) {
      return config;
    }
    if (config != current.configIn) {
      Permit p = current.permit;
      current.configOut = calls.withTimeouts(config, p.connectTimeoutMillis, p.readTimeoutMillis);
      current.configIn = config;
    }
    return current.configOut;
  }

  /**
   * Whether the thread has an admitted call with timeouts and is in it, not in an HTTP call nested
   * inside it (a client an interceptor calls, which is not decided on its own and so gets nothing
   * of the outer call's rule): the hook's cheap first test.
   */
  public static boolean hasTimeouts() {
    Current current = CURRENT.get();
    return current != null && current.permit != null && CallDepth.current(Kind.HTTP) == 1;
  }

  private static void keepLastGood(
      BlockingClientCalls calls,
      Object token,
      Object target,
      Object request,
      Object response,
      int status) {
    try {
      String method = calls.method(request);
      if (!"GET".equals(method)) {
        return;
      }
      LastGoodKeeper keeper =
          Levee.lastGood(
              token, method, calls.url(target, request), status, calls.headers(response));
      if (keeper != null) {
        calls.teeBody(response, new BodyTee(keeper));
      }
    } catch (Throwable t) {
      // The live response stays as it is; only its copy is lost.
      HookErrors.report(t);
    }
  }

  private static void remember(Permit permit) {
    Current current = CURRENT.get();
    if (current == null) {
      current = new Current();
      CURRENT.set(current);
    }
    current.permit = permit;
  }

  private static void forget() {
    Current current = CURRENT.get();
    if (current != null) {
      current.permit = null;
      current.configIn = null;
      current.configOut = null;
    }
  }

  /** One per thread, reused; only its own thread reads or writes it. */
  private static final class Current {
    Permit permit;

    /** The last configuration the client read during the call, and what it was given instead. */
    Object configIn;

    Object configOut;
  }
}
