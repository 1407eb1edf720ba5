package io.levee.bootstrap.http;

import io.levee.bootstrap.Blocked;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;

/**
 * A response Levee gives instead of the host's: a blocked call's {@code on-block.fallback} as plain
 * values that every client turns into a response of its own type. The header list always has a
 * {@code Content-Type} and a {@code Content-Length}, and a {@code Retry-After} when the block says
 * when to retry, unless the rules file names them itself. A last good answer ({@code
 * fallback.last-good}) has instead the headers it was kept with, a {@code Content-Length} that is
 * its body's, and {@code Levee-Fallback: last-good; age=SECONDS}.
 */
public final class HttpAnswer {
  private static final Charset UTF_8 = Charset.forName("UTF-8");

  public final int status;

  /** The reason phrase for {@link #status}: never empty, as some clients refuse an empty one. */
  public final String reason;

  /** Name, value, name, value...; never null. */
  private final String[] headers;

  private final byte[] body;

  public HttpAnswer(int status, String[] headers, byte[] body) {
    this.status = status;
    String known = knownReason(status);
    this.reason = known != null ? known : status < 400 ? "OK" : "Error";
    this.headers = headers;
    this.body = body;
  }

  /**
   * The fallback of {@code blocked}, which must have one ({@link Blocked#fallback}): the last good
   * answer of the call's URL when the block carries one ({@link Blocked#lastGood}), else the
   * fallback of the rules.
   */
  public static HttpAnswer of(Blocked blocked) {
    if (blocked.lastGood != null) {
      return blocked.lastGood;
    }
    byte[] body = blocked.body.getBytes(UTF_8);
    List<String> h = new ArrayList<String>(8);
    if (!has(blocked.headers, "Content-Type")) {
      add(h, "Content-Type", blocked.contentType);
    }
    add(h, "Content-Length", Integer.toString(body.length));
    if (blocked.retryAfterSeconds >= 0 && !has(blocked.headers, "Retry-After")) {
      add(h, "Retry-After", Integer.toString(blocked.retryAfterSeconds));
    }
    for (int i = 0; i + 1 < blocked.headers.length; i += 2) {
      add(h, blocked.headers[i], blocked.headers[i + 1]);
    }
    return new HttpAnswer(blocked.status, h.toArray(new String[0]), body);
  }

  public int headerCount() {
    return headers.length / 2;
  }

  public String headerName(int i) {
    return headers[2 * i];
  }

  public String headerValue(int i) {
    return headers[2 * i + 1];
  }

  /** The last value of the header {@code name}, ignoring case, or null. */
  public String header(String name) {
    for (int i = headers.length - 2; i >= 0; i -= 2) {
      if (name.equalsIgnoreCase(headers[i])) {
        return headers[i + 1];
      }
    }
    return null;
  }

  /** The body's bytes: a copy, so that a caller cannot change the answer of the next call. */
  public byte[] body() {
    return body.clone();
  }

  public int bodyLength() {
    return body.length;
  }

  private static void add(List<String> headers, String name, String value) {
    headers.add(name);
    headers.add(value);
  }

  private static boolean has(String[] headers, String name) {
    for (int i = 0; i < headers.length; i += 2) {
      if (name.equalsIgnoreCase(headers[i])) {
        return true;
      }
    }
    return false;
  }

  /** The standard reason phrase of the statuses a fallback commonly uses; null for the others. */
  static String knownReason(int status) {
    switch (status) {
      case 200:
        return "OK";
      case 202:
        return "Accepted";
      case 204:
        return "No Content";
      case 400:
        return "Bad Request";
      case 404:
        return "Not Found";
      case 429:
        return "Too Many Requests";
      case 500:
        return "Internal Server Error";
      case 502:
        return "Bad Gateway";
      case 503:
        return "Service Unavailable";
      case 504:
        return "Gateway Timeout";
      default:
        return null;
    }
  }
}
