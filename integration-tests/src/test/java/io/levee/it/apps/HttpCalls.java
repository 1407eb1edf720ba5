package io.levee.it.apps;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * {@code /http?url=&method=&readTimeout=&connectTimeout=&repeat=}: an outbound call the way a
 * legacy application makes it, with a plain {@link HttpURLConnection}. Answers the status and body,
 * or the exception; with {@code repeat=N} it makes N calls and answers counts and the median
 * duration, so that the time of a blocked call is measured inside the application, not across a
 * network hop.
 */
public final class HttpCalls {
  private HttpCalls() {}

  public static String handle(Map<String, String> q) {
    int repeat = Integer.parseInt(q.getOrDefault("repeat", "1"));
    return repeat > 1 ? repeated(q, repeat) : once(q);
  }

  private static String once(Map<String, String> q) {
    Lines out = new Lines();
    long start = System.nanoTime();
    try {
      call(q, out);
      out.put("outcome", "response");
    } catch (IOException e) {
      out.exception(e);
    }
    return out.put("elapsedMs", (System.nanoTime() - start) / 1_000_000).toString();
  }

  private static String repeated(Map<String, String> q, int repeat) {
    long[] nanos = new long[repeat];
    int responses = 0;
    int exceptions = 0;
    int levee = 0;
    Lines last = new Lines();
    for (int i = 0; i < repeat; i++) {
      last = new Lines();
      long start = System.nanoTime();
      try {
        call(q, last);
        responses++;
      } catch (IOException e) {
        exceptions++;
        if (e.getMessage() != null && e.getMessage().startsWith("levee:")) {
          levee++;
        }
        last.exception(e);
      }
      nanos[i] = System.nanoTime() - start;
    }
    Arrays.sort(nanos);
    return new Lines()
            .put("calls", repeat)
            .put("responses", responses)
            .put("exceptions", exceptions)
            .put("leveeExceptions", levee)
            .put("medianNanos", nanos[repeat / 2])
        + last.toString();
  }

  private static int call(Map<String, String> q, Lines out) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(q.get("url")).openConnection();
    c.setRequestMethod(q.getOrDefault("method", "GET"));
    if (q.containsKey("readTimeout")) {
      c.setReadTimeout(Integer.parseInt(q.get("readTimeout")));
    }
    if (q.containsKey("connectTimeout")) {
      c.setConnectTimeout(Integer.parseInt(q.get("connectTimeout")));
    }
    int status = c.getResponseCode();
    InputStream body = status >= 400 ? c.getErrorStream() : c.getInputStream();
    out.put("status", status).put("body", body == null ? "" : read(body));
    String type = c.getHeaderField("Content-Type");
    if (type != null) {
      out.put("contentType", type);
    }
    if ("true".equals(q.get("disconnect"))) {
      c.disconnect();
    }
    return status;
  }

  private static String read(InputStream in) throws IOException {
    try (InputStream s = in) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      byte[] buffer = new byte[4096];
      for (int n; (n = s.read(buffer)) != -1; ) {
        bytes.write(buffer, 0, n);
      }
      return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
    }
  }
}
