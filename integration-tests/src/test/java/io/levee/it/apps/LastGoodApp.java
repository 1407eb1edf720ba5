package io.levee.it.apps;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * The application of the last-good tests: {@code /get?url=&client=&text=1&buffer=&readBytes=} makes
 * one {@code GET} through {@code client} ({@link LastGoodClients}; {@code HttpURLConnection} by
 * default) and reads the body the way a legacy application does, piece by piece with a buffer of
 * {@code buffer} bytes (default 8192), to its end or, with {@code readBytes}, only that many bytes
 * before it closes the stream; or, with {@code text}, whole through the client's own API. It
 * answers the jar of the client, the status, how its callback was told (for a client that takes
 * one), the headers the test looks at, the body's length, SHA-256 and (when short) text, how many
 * reads it took, and when the first and the last byte arrived after the status was known. Its own
 * port is served by the JDK's {@code HttpServer}, which Levee does not protect, so only the
 * outbound call is decided.
 */
public final class LastGoodApp {
  private static final String[] HEADERS = {
    "Content-Type",
    "Content-Length",
    "Content-Encoding",
    "Transfer-Encoding",
    "Levee-Fallback",
    "X-Version",
    "X-Encoded"
  };

  private LastGoodApp() {}

  public static void main(String[] args) throws IOException {
    HttpServer server =
        HttpServer.create(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), AppProcess.port(args)), 50);
    server.createContext("/get", LastGoodApp::handle);
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
    AppProcess.ready(server.getAddress().getPort());
  }

  private static void handle(HttpExchange exchange) throws IOException {
    String answer;
    try {
      answer = get(query(exchange.getRequestURI().getRawQuery()));
    } catch (Exception e) {
      answer = new Lines().exception(e).toString();
    }
    byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(200, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static String get(Map<String, String> q) throws Exception {
    boolean text = q.containsKey("text");
    try (LastGoodClients.Exchange x =
        LastGoodClients.get(q.getOrDefault("client", "huc"), q.get("url"), text)) {
      long known = System.nanoTime();
      Lines out =
          new Lines()
              .put("library", x.library())
              .put("status", x.status())
              .put("callback", x.callback());
      for (String name : HEADERS) {
        out.put(name, x.header(name));
      }
      return (text ? whole(x) : read(x, q, known)).apply(out);
    }
  }

  /** The body as the client's own API gives it whole, as text. */
  private static Body whole(LastGoodClients.Exchange x) throws Exception {
    byte[] bytes = x.text().getBytes(StandardCharsets.UTF_8);
    return new Body(
        bytes.length, sha256(bytes, bytes.length), text(bytes, bytes.length), 1, -1, -1);
  }

  private static Body read(LastGoodClients.Exchange x, Map<String, String> q, long known)
      throws IOException, NoSuchAlgorithmException {
    int limit = Integer.parseInt(q.getOrDefault("readBytes", "-1"));
    byte[] buffer = new byte[Integer.parseInt(q.getOrDefault("buffer", "8192"))];
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    StringBuilder text = new StringBuilder();
    long length = 0;
    int reads = 0;
    long first = -1;
    try (InputStream body = x.body()) {
      while (limit < 0 || length < limit) {
        int want = limit < 0 ? buffer.length : (int) Math.min(buffer.length, limit - length);
        int n = body.read(buffer, 0, want);
        if (n < 0) {
          break;
        }
        if (first < 0) {
          first = System.nanoTime();
        }
        reads++;
        sha.update(buffer, 0, n);
        if (length + n <= 256) {
          text.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
        }
        length += n;
      }
    }
    long last = System.nanoTime();
    return new Body(
        length,
        HexFormat.of().formatHex(sha.digest()),
        length <= 256 ? text.toString() : "",
        reads,
        first < 0 ? -1 : (first - known) / 1_000_000,
        (last - known) / 1_000_000);
  }

  private static String sha256(byte[] b, int length) throws NoSuchAlgorithmException {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    sha.update(b, 0, length);
    return HexFormat.of().formatHex(sha.digest());
  }

  private static String text(byte[] b, int length) {
    return length <= 256 ? new String(b, 0, length, StandardCharsets.UTF_8) : "";
  }

  /** What the application got of the body, and when its first and last byte came. */
  private record Body(
      long length, String sha256, String text, int reads, long firstByteMs, long lastByteMs) {
    String apply(Lines out) {
      return out.put("length", length)
          .put("sha256", sha256)
          .put("body", text)
          .put("reads", reads)
          .put("firstByteMs", firstByteMs)
          .put("lastByteMs", lastByteMs)
          .toString();
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> values = new HashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          values.put(
              pair.substring(0, eq),
              URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return values;
  }
}
