package io.levee.it.apps;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * The application of the last-good tests: {@code /get?url=&buffer=&readBytes=} makes one {@code
 * GET} with a plain {@link HttpURLConnection} and reads the body the way a legacy application does,
 * piece by piece with a buffer of {@code buffer} bytes (default 8192), to its end or, with {@code
 * readBytes}, only that many bytes before it closes the stream. It answers the status, the headers
 * the test looks at, the body's length, SHA-256 and (when short) text, how many reads it took, and
 * when the first and the last byte arrived after the status was known. Its own port is served by
 * the JDK's {@code HttpServer}, which Levee does not protect, so only the outbound call is decided.
 */
public final class LastGoodApp {
  private static final String[] HEADERS = {
    "Content-Type", "Content-Length", "Transfer-Encoding", "Levee-Fallback", "X-Version"
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

  private static String get(Map<String, String> q) throws IOException, NoSuchAlgorithmException {
    Lines out = new Lines();
    HttpURLConnection c = (HttpURLConnection) new URL(q.get("url")).openConnection();
    c.setReadTimeout(10_000);
    int status = c.getResponseCode();
    long known = System.nanoTime();
    out.put("status", status);
    for (String name : HEADERS) {
      String value = c.getHeaderField(name);
      out.put(name, value == null ? "" : value);
    }
    int limit = Integer.parseInt(q.getOrDefault("readBytes", "-1"));
    byte[] buffer = new byte[Integer.parseInt(q.getOrDefault("buffer", "8192"))];
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    StringBuilder text = new StringBuilder();
    long length = 0;
    int reads = 0;
    long first = -1;
    try (InputStream body = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
      while (body != null && (limit < 0 || length < limit)) {
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
    return out.put("length", length)
        .put("sha256", HexFormat.of().formatHex(sha.digest()))
        .put("body", length <= 256 ? text : "")
        .put("reads", reads)
        .put("firstByteMs", first < 0 ? -1 : (first - known) / 1_000_000)
        .put("lastByteMs", (last - known) / 1_000_000)
        .toString();
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
