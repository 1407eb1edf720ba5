package io.levee.bootstrap.http;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.CallDepth;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Faults;
import io.levee.bootstrap.Kind;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.WeakIdentityMap;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The logic behind the woven {@code HttpURLConnection} methods ({@link HttpHooks}), which only pass
 * the connection and the values it can read ({@code responseCode}) here.
 *
 * <p>One decision per connection: the first outermost {@code connect}, {@code getOutputStream},
 * {@code getInputStream} or header lookup asks the dispatcher, and the answer is kept in a weak
 * identity map (never a field: impossible after a runtime attach) for every later call, on any
 * thread. {@code getResponseCode} is not intercepted: the JDK implements it by calling {@code
 * getInputStream} and then reading the status line, both of which are. An admitted call reports its
 * outcome once, at the end of the first outermost call that knows the status (a status of 400 or
 * more is a response, not an error; the JDK throws for it) or that ends with an exception; {@code
 * disconnect} of a connection never read, or the garbage collection of one nobody disconnected,
 * releases the permit.
 *
 * <p>The last good answer ({@code fallback.last-good}): the body of an admitted {@code GET}'s 2xx
 * answer, when its resource keeps one, is handed to the application through a stream that copies
 * what it reads ({@link TeeInputStream}); a blocked call's fallback is then that answer, as {@link
 * HttpAnswer#of} gives it.
 */
public final class HttpCalls {
  private static final WeakIdentityMap<HttpCall> CALLS = new WeakIdentityMap<HttpCall>();

  /** More response headers than this are not read for a last good answer. */
  private static final int MAX_HEADERS = 500;

  private HttpCalls() {}

  /**
   * Enter of {@code connect}, {@code getOutputStream} and {@code getInputStream}. Returns the call
   * when it is blocked, and the woven code then skips the original method; null to run it.
   */
  public static Object enter(HttpURLConnection c) {
    Faults.at(Faults.HTTP_ENTER);
    if (CallDepth.enter(Kind.HTTP) != 0) {
      return null;
    }
    HttpCall call = decide(c);
    return call.blocked() != null ? call : null;
  }

  /**
   * Exit of the methods {@link #enter} covers. Returns what the method must throw: for a skipped
   * (blocked) call the {@code levee:} exception, or what a fallback response of 400 or more throws
   * when {@code readsResponse}; otherwise {@code thrown} unchanged.
   */
  public static Throwable exit(
      HttpURLConnection c,
      int responseCode,
      Object skipped,
      Throwable thrown,
      boolean readsResponse) {
    if (CallDepth.exit(Kind.HTTP) != 0) {
      return thrown;
    }
    if (skipped != null) {
      return blockedError(c, (HttpCall) skipped, readsResponse);
    }
    HttpCall call = CALLS.get(c);
    if (call != null && call.tracked()) {
      if (responseCode != -1) {
        call.finish(responseCode, null);
      } else if (thrown != null) {
        call.finish(-1, thrown);
      }
    }
    // After the outcome: what fails here leaves the permit returned and the call's answer alone.
    Faults.at(Faults.HTTP_EXIT);
    return thrown;
  }

  /**
   * What a skipped {@code getOutputStream} returns: a sink for a fallback, as no request is sent.
   */
  public static OutputStream requestBody(Object skipped) {
    return ((HttpCall) skipped).fallback() ? new DiscardingOutputStream() : null;
  }

  /**
   * What a {@code getInputStream} that ran returns: the JDK's stream {@code live}, or, for the 2xx
   * answer of an admitted {@code GET} whose resource keeps last good answers, a stream that reads
   * exactly as it does and copies the body for the last good answer. Asked on every outermost
   * {@code getInputStream}; costs one map lookup for every other call.
   */
  public static InputStream liveBody(HttpURLConnection c, int responseCode, InputStream live) {
    if (live == null
        || responseCode < 200
        || responseCode > 299
        || CallDepth.current(Kind.HTTP) != 0) {
      return live;
    }
    HttpCall call = CALLS.get(c);
    if (call == null || call.lastGoodUrl == null) {
      return live;
    }
    InputStream offered = call.offered(live);
    return offered != null ? offered : call.offer(live, keeper(c, call, responseCode));
  }

  private static LastGoodKeeper keeper(HttpURLConnection c, HttpCall call, int status) {
    String[] headers;
    // The header methods call getInputStream again: one more step of this call, not a new one.
    CallDepth.enter(Kind.HTTP);
    try {
      headers = headers(c);
    } finally {
      CallDepth.exit(Kind.HTTP);
    }
    return Levee.lastGood(call.token, "GET", call.lastGoodUrl, status, headers);
  }

  /** The response headers as name, value, name, value..., in order, without the status line. */
  private static String[] headers(HttpURLConnection c) {
    List<String> headers = new ArrayList<String>(32);
    for (int i = 0; i < MAX_HEADERS; i++) {
      String value = c.getHeaderField(i);
      String name = c.getHeaderFieldKey(i);
      if (value == null && name == null) {
        break;
      }
      if (name != null && value != null) {
        headers.add(name);
        headers.add(value);
      }
    }
    return headers.toArray(new String[0]);
  }

  /** What a skipped {@code getInputStream} returns: the fallback body below status 400. */
  public static InputStream responseBody(Object skipped) {
    HttpCall call = (HttpCall) skipped;
    return call.fallback() && call.response().status < 400 ? call.response().body() : null;
  }

  /**
   * Enter of the header methods: the call when its fallback answers them (the woven code then skips
   * the original method), null to run it. Decides first if nothing has yet, as the JDK's header
   * methods connect and read the response themselves.
   */
  public static Object fallback(HttpURLConnection c) {
    Faults.at(Faults.HTTP_HEADERS);
    HttpCall call = CALLS.get(c);
    if (call == null && CallDepth.current(Kind.HTTP) == 0) {
      call = decide(c);
    }
    return call != null && call.fallback() ? call : null;
  }

  /** Enter of {@code getErrorStream}, which never connects: the call when its fallback answers. */
  public static Object decidedFallback(HttpURLConnection c) {
    HttpCall call = CALLS.get(c);
    return call != null && call.fallback() ? call : null;
  }

  public static String headerField(Object call, String name) {
    return ((HttpCall) call).response().headerField(name);
  }

  public static String headerField(Object call, int n) {
    return ((HttpCall) call).response().headerField(n);
  }

  public static String headerFieldKey(Object call, int n) {
    return ((HttpCall) call).response().headerFieldKey(n);
  }

  public static Map<String, List<String>> headerFields(Object call) {
    return ((HttpCall) call).response().headerFields();
  }

  /** The error stream of a fallback: its body when the status is 400 or more, as the JDK's. */
  public static InputStream errorStream(Object call) {
    SyntheticResponse response = ((HttpCall) call).response();
    return response.status >= 400 ? response.body() : null;
  }

  /** Enter of {@code disconnect}: a connection given up before its response releases its permit. */
  public static void disconnect(HttpURLConnection c, int responseCode) {
    HttpCall call = CALLS.get(c);
    if (call != null) {
      call.finish(responseCode >= 0 ? responseCode : Dispatcher.STATUS_ABANDONED, null);
    }
    Faults.at(Faults.HTTP_DISCONNECT);
  }

  private static HttpCall decide(HttpURLConnection c) {
    HttpCall call = CALLS.get(c);
    if (call != null) {
      return call;
    }
    releaseAbandoned();
    String method = c.getRequestMethod();
    String url = String.valueOf(c.getURL());
    Object token = Levee.httpEnter(method, url);
    call =
        token == null
            ? HttpCall.UNTRACKED
            : new HttpCall(
                token,
                Levee.start(token),
                "HEAD".equals(method),
                "GET".equals(method) && Levee.keepsLastGood(token) ? url : null);
    HttpCall earlier;
    try {
      earlier = CALLS.putIfAbsent(c, call);
    } catch (RuntimeException | Error e) {
      // Not recorded, so nothing would ever report it: the call runs untracked.
      call.finish(Dispatcher.STATUS_ABANDONED, null);
      throw e;
    }
    if (earlier != null) {
      // Two threads raced to the first call of one connection: keep one decision, release the
      // other.
      call.finish(Dispatcher.STATUS_ABANDONED, null);
      return earlier;
    }
    if (token instanceof Permit) {
      applyTimeouts(c, (Permit) token);
    }
    return call;
  }

  /**
   * The permit's timeouts, only where the application left 0 (infinite); called before connecting.
   */
  private static void applyTimeouts(HttpURLConnection c, Permit permit) {
    if (permit.connectTimeoutMillis > 0 && c.getConnectTimeout() == 0) {
      c.setConnectTimeout(permit.connectTimeoutMillis);
    }
    if (permit.readTimeoutMillis > 0 && c.getReadTimeout() == 0) {
      c.setReadTimeout(permit.readTimeoutMillis);
    }
  }

  private static void releaseAbandoned() {
    HttpCall abandoned;
    while ((abandoned = CALLS.pollCollected()) != null) {
      abandoned.finish(Dispatcher.STATUS_ABANDONED, null);
    }
  }

  private static Throwable blockedError(HttpURLConnection c, HttpCall call, boolean readsResponse) {
    Blocked blocked = call.blocked();
    if (!blocked.fallback) {
      return new IOException(blocked.message);
    }
    int status = call.response().status;
    if (!readsResponse || status < 400) {
      return null;
    }
    // What the JDK throws from getInputStream for such a status, so callers handle it as they do
    // now.
    String url = String.valueOf(c.getURL());
    if (status == 404 || status == 410) {
      return new FileNotFoundException(url);
    }
    return new IOException("Server returned HTTP response code: " + status + " for URL: " + url);
  }

  /** A request body nobody will send. */
  private static final class DiscardingOutputStream extends OutputStream {
    @Override
    public void write(int b) {}

    @Override
    public void write(byte[] b, int off, int len) {}
  }
}
