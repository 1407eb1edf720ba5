package io.levee.bootstrap.http;

import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.Sneaky;
import java.io.InputStream;
import java.net.HttpURLConnection;

/**
 * What the woven methods of the JDK's {@code HttpURLConnection} implementation call; the logic is
 * in {@link HttpCalls}. The woven code passes the connection and its {@code responseCode} field
 * (which only the subclass can read), skips the original when the enter method returns non-null (a
 * blocked call, or a fallback that answers), and hands the return value through the exit method,
 * which may replace it. Errors of our own are reported and change nothing; a blocked call's
 * exception is thrown from the exit method.
 */
public final class HttpHooks {
  private HttpHooks() {}

  // connect, getOutputStream, getInputStream: the first one decides.

  public static Object decide(HttpURLConnection c) {
    try {
      return HttpCalls.enter(c);
    } catch (Throwable t) {
      HookErrors.report(t);
      return null;
    }
  }

  public static Object connected(
      Object skipped, HttpURLConnection c, int responseCode, Object returned) {
    end(c, responseCode, skipped, false);
    return returned;
  }

  public static Object outputStream(
      Object skipped, HttpURLConnection c, int responseCode, Object returned) {
    Object stream = returned;
    if (skipped != null) {
      try {
        stream = HttpCalls.requestBody(skipped);
      } catch (Throwable t) {
        HookErrors.report(t);
      }
    }
    end(c, responseCode, skipped, false);
    return stream;
  }

  public static Object inputStream(
      Object skipped, HttpURLConnection c, int responseCode, Object returned) {
    Object stream = returned;
    if (skipped != null) {
      try {
        stream = HttpCalls.responseBody(skipped);
      } catch (Throwable t) {
        HookErrors.report(t);
      }
    }
    end(c, responseCode, skipped, true);
    if (skipped == null && returned instanceof InputStream) {
      try {
        stream = HttpCalls.liveBody(c, responseCode, (InputStream) returned);
      } catch (Throwable t) {
        HookErrors.report(t);
      }
    }
    return stream;
  }

  /** {@code connect} and {@code getOutputStream} threw. */
  public static Throwable failed(
      Object skipped, HttpURLConnection c, int responseCode, Throwable thrown) {
    return failed(c, responseCode, skipped, thrown, false);
  }

  /** {@code getInputStream} threw. */
  public static Throwable readFailed(
      Object skipped, HttpURLConnection c, int responseCode, Throwable thrown) {
    return failed(c, responseCode, skipped, thrown, true);
  }

  private static void end(
      HttpURLConnection c, int responseCode, Object skipped, boolean readsResponse) {
    Throwable error;
    try {
      error = HttpCalls.exit(c, responseCode, skipped, null, readsResponse);
    } catch (Throwable t) {
      HookErrors.report(t);
      return;
    }
    if (error != null) {
      throw Sneaky.raise(error);
    }
  }

  private static Throwable failed(
      HttpURLConnection c,
      int responseCode,
      Object skipped,
      Throwable thrown,
      boolean readsResponse) {
    try {
      Throwable error = HttpCalls.exit(c, responseCode, skipped, thrown, readsResponse);
      return error != null ? error : thrown;
    } catch (Throwable t) {
      HookErrors.report(t);
      return thrown;
    }
  }

  // The response-reading methods: a fallback answers them itself.

  public static Object fallback(HttpURLConnection c) {
    try {
      return HttpCalls.fallback(c);
    } catch (Throwable t) {
      HookErrors.report(t);
      return null;
    }
  }

  /** {@code getErrorStream}, which never connects, so it never decides either. */
  public static Object decidedFallback(HttpURLConnection c) {
    try {
      return HttpCalls.decidedFallback(c);
    } catch (Throwable t) {
      HookErrors.report(t);
      return null;
    }
  }

  public static Object headerField(Object fallback, Object name, Object returned) {
    try {
      return fallback != null ? HttpCalls.headerField(fallback, (String) name) : returned;
    } catch (Throwable t) {
      HookErrors.report(t);
      return returned;
    }
  }

  public static Object headerField(Object fallback, int n, Object returned) {
    try {
      return fallback != null ? HttpCalls.headerField(fallback, n) : returned;
    } catch (Throwable t) {
      HookErrors.report(t);
      return returned;
    }
  }

  public static Object headerFieldKey(Object fallback, int n, Object returned) {
    try {
      return fallback != null ? HttpCalls.headerFieldKey(fallback, n) : returned;
    } catch (Throwable t) {
      HookErrors.report(t);
      return returned;
    }
  }

  public static Object headerFields(Object fallback, Object returned) {
    try {
      return fallback != null ? HttpCalls.headerFields(fallback) : returned;
    } catch (Throwable t) {
      HookErrors.report(t);
      return returned;
    }
  }

  public static Object errorStream(Object fallback, Object returned) {
    try {
      return fallback != null ? HttpCalls.errorStream(fallback) : returned;
    } catch (Throwable t) {
      HookErrors.report(t);
      return returned;
    }
  }

  /** {@code disconnect}: a connection given up before its response releases its permit. */
  public static Object disconnect(HttpURLConnection c, int responseCode) {
    try {
      HttpCalls.disconnect(c, responseCode);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return null;
  }
}
