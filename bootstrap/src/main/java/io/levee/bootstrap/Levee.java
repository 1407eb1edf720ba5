package io.levee.bootstrap;

import io.levee.bootstrap.http.LastGoodKeeper;

/**
 * The static entry points the woven code and its hooks call. Each forwards to the installed {@link
 * Dispatcher} and fails open: an exception from the agent becomes "not tracked", never an error of
 * the application.
 *
 * <p>Concurrency: {@code dispatcher} is written by the agent's lifecycle (start, reload, detach)
 * and read by every intercepted call; a volatile read is the whole cost.
 */
public final class Levee {
  private static volatile Dispatcher dispatcher = Dispatcher.NOOP;

  private Levee() {}

  public static void install(Dispatcher d) {
    dispatcher = d == null ? Dispatcher.NOOP : d;
  }

  public static Dispatcher dispatcher() {
    return dispatcher;
  }

  public static Object servletEnter(String method, String path, Object request, Object keys) {
    Faults.at(Faults.BRIDGE);
    Dispatcher d = dispatcher;
    try {
      return d.servletEnter(method, path, request, keys);
    } catch (Throwable t) {
      report(d, t);
      return null;
    }
  }

  public static Object httpEnter(String method, String url) {
    Faults.at(Faults.BRIDGE);
    Dispatcher d = dispatcher;
    try {
      return RequestRefusals.note(d.httpEnter(method, url));
    } catch (Throwable t) {
      report(d, t);
      return null;
    }
  }

  /** See {@link Dispatcher#keepsLastGood}; false for any token but a permit. */
  public static boolean keepsLastGood(Object token) {
    if (!(token instanceof Permit)) {
      return false;
    }
    Dispatcher d = dispatcher;
    try {
      return d.keepsLastGood(token);
    } catch (Throwable t) {
      report(d, t);
      return false;
    }
  }

  /** See {@link Dispatcher#lastGood}; null when the dispatcher fails. */
  public static LastGoodKeeper lastGood(
      Object token, String method, String url, int status, String[] headers) {
    if (!(token instanceof Permit)) {
      return null;
    }
    Dispatcher d = dispatcher;
    try {
      return d.lastGood(token, method, url, status, headers);
    } catch (Throwable t) {
      report(d, t);
      return null;
    }
  }

  public static Object jdbcEnter(String jdbcUrl, String sql) {
    Faults.at(Faults.BRIDGE);
    Dispatcher d = dispatcher;
    try {
      return RequestRefusals.note(d.jdbcEnter(jdbcUrl, sql));
    } catch (Throwable t) {
      report(d, t);
      return null;
    }
  }

  /** See {@link Dispatcher#jdbcConnectMatches}; false when the dispatcher fails. */
  public static boolean jdbcConnectMatches(String jdbcUrl) {
    Faults.at(Faults.BRIDGE);
    Dispatcher d = dispatcher;
    try {
      return d.jdbcConnectMatches(jdbcUrl);
    } catch (Throwable t) {
      report(d, t);
      return false;
    }
  }

  /** See {@link Dispatcher#jdbcReadsSql}; true when the dispatcher fails, so nothing is lost. */
  public static boolean jdbcReadsSql(String jdbcUrl) {
    Dispatcher d = dispatcher;
    try {
      return d.jdbcReadsSql(jdbcUrl);
    } catch (Throwable t) {
      report(d, t);
      return true;
    }
  }

  public static Object jdbcConnect(String jdbcUrl) {
    Faults.at(Faults.BRIDGE);
    Dispatcher d = dispatcher;
    try {
      return RequestRefusals.note(d.jdbcConnect(jdbcUrl));
    } catch (Throwable t) {
      report(d, t);
      return null;
    }
  }

  public static Object methodEnter(int site) {
    Faults.at(Faults.BRIDGE);
    Dispatcher d = dispatcher;
    try {
      return RequestRefusals.note(d.methodEnter(site));
    } catch (Throwable t) {
      report(d, t);
      return null;
    }
  }

  /**
   * See {@link Dispatcher#methodBlocked}; when the dispatcher fails, a {@code
   * RejectedExecutionException} with the blocked call's message, which any method may throw.
   */
  public static Throwable methodBlocked(int site, Blocked blocked) {
    Dispatcher d = dispatcher;
    try {
      Throwable error = d.methodBlocked(site, blocked);
      if (error != null) {
        return error;
      }
    } catch (Throwable t) {
      report(d, t);
    }
    return new java.util.concurrent.RejectedExecutionException(blocked.message);
  }

  /** Reports the outcome of a method call; like {@link #exit}. */
  public static void methodExit(Object token, long startNanos, Throwable error) {
    if (!(token instanceof Permit)) {
      return;
    }
    Dispatcher d = dispatcher;
    try {
      d.methodExit(token, startNanos, error);
    } catch (Throwable t) {
      report(d, t);
    }
  }

  /**
   * The start of the call {@code token} admitted, to hand to {@link #exit}; 0 for any other token.
   * The woven code asks right after the enter call that returned the token, on the same thread, so
   * the dispatcher can answer with its decision's clock read instead of reading it again.
   */
  public static long start(Object token) {
    if (!(token instanceof Permit)) {
      return 0L;
    }
    Dispatcher d = dispatcher;
    try {
      return d.start(token);
    } catch (Throwable t) {
      report(d, t);
      return System.nanoTime();
    }
  }

  /**
   * Reports the outcome of a call that {@code token} admitted. Safe to call with any token: null
   * and {@link Blocked} tokens are ignored. The dispatcher installed now completes it: an engine's
   * permit carries its own resource state, so a reload in between does not matter, and after a
   * detach the no-op dispatcher ignores it.
   */
  public static void exit(Object token, long startNanos, int status, Throwable error) {
    if (!(token instanceof Permit)) {
      return;
    }
    Dispatcher d = dispatcher;
    try {
      d.exit(token, startNanos, status, error);
    } catch (Throwable t) {
      report(d, t);
    }
  }

  /**
   * See {@link Dispatcher#backpressure}; null for any token but a permit, and when the dispatcher
   * fails (the request's own answer stands).
   */
  public static Blocked backpressure(Object token, Blocked refused) {
    if (!(token instanceof Permit)) {
      return null;
    }
    Dispatcher d = dispatcher;
    try {
      return d.backpressure(token, refused);
    } catch (Throwable t) {
      report(d, t);
      return null;
    }
  }

  private static void report(Dispatcher d, Throwable t) {
    try {
      d.internalError(t);
    } catch (Throwable ignored) {
      // The agent's own error handler failed; there is nothing safe left to do.
    }
  }
}
