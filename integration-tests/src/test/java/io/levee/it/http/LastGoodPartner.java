package io.levee.it.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;

/**
 * The partner of the last-good tests: a JSON price list whose version the test moves, a redirect to
 * it, answers marked {@code no-store} or {@code private}, bodies over 64 KiB with and without a
 * length, one the application reads only in part, a text sent gzip-encoded to a client that accepts
 * it (marked {@code X-Encoded}), and a long chunked body sent in two parts with a pause; or 500 for
 * everything once {@link #failing}. Counts the requests it reads.
 */
final class LastGoodPartner implements AutoCloseable {
  static final int BIG = 70 * 1024;

  /**
   * The body the application reads only in part: longer than what a client reads ahead of it
   * (OkHttp's okio buffer takes 8 KiB at a time), so the copy too sees less than the whole.
   */
  static final int PARTIAL = 20 * 1024;

  /** The streamed body: long, in chunks, with a pause after the first part. */
  static final int STREAM_LENGTH = 512 * 1024;

  static final int STREAM_PAUSE_MS = 1500;

  /** What {@code /gzip} answers, as the application reads it once decoded. */
  static final String GZIP_TEXT = "{\"items\":[" + "\"ten bytes\",".repeat(16) + "\"end\"]}";

  final AtomicInteger version = new AtomicInteger(1);
  volatile boolean failing;
  private final AtomicInteger received = new AtomicInteger();
  private final ExecutorService handlers = Executors.newCachedThreadPool();
  private final HttpServer server;

  LastGoodPartner() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    server.createContext("/", this::handle);
    server.setExecutor(handlers);
    server.start();
  }

  int port() {
    return server.getAddress().getPort();
  }

  String url(String path) {
    return "http://127.0.0.1:" + port() + path;
  }

  int received() {
    return received.get();
  }

  static byte[] stream() {
    byte[] b = new byte[STREAM_LENGTH];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (i % 251);
    }
    return b;
  }

  static String streamSha256() throws NoSuchAlgorithmException {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(stream()));
  }

  private void handle(HttpExchange exchange) throws IOException {
    received.incrementAndGet();
    exchange.getRequestBody().readAllBytes();
    String path = exchange.getRequestURI().getPath();
    if (failing) {
      respond(exchange, 500, "text/plain", "failing on purpose".getBytes(StandardCharsets.UTF_8));
      return;
    }
    switch (path) {
      case "/prices" -> {
        exchange.getResponseHeaders().set("X-Version", Integer.toString(version.get()));
        respond(exchange, 200, "application/json", utf8("{\"eur\":" + version.get() + "}"));
      }
      case "/nostore" -> {
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        respond(exchange, 200, "text/plain", utf8("fresh"));
      }
      case "/private" -> {
        exchange.getResponseHeaders().set("Cache-Control", "private, max-age=60");
        respond(exchange, 200, "text/plain", utf8("mine"));
      }
      case "/big" -> respond(exchange, 200, "application/octet-stream", new byte[BIG]);
      case "/big-chunked" -> {
        exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(new byte[BIG]);
        }
      }
      case "/moved" -> {
        exchange.getResponseHeaders().set("Location", "/prices");
        respond(exchange, 302, "text/plain", utf8("moved"));
      }
      case "/partial" -> respond(exchange, 200, "application/octet-stream", new byte[PARTIAL]);
      case "/gzip" -> gzip(exchange);
      case "/stream" -> streamed(exchange);
      default -> respond(exchange, 200, "text/plain", utf8("ok"));
    }
  }

  private static void gzip(HttpExchange exchange) throws IOException {
    String accepted = exchange.getRequestHeaders().getFirst("Accept-Encoding");
    byte[] text = utf8(GZIP_TEXT);
    if (accepted == null || !accepted.contains("gzip")) {
      exchange.getResponseHeaders().set("X-Encoded", "identity");
      respond(exchange, 200, "application/json", text);
      return;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream zip = new GZIPOutputStream(bytes)) {
      zip.write(text);
    }
    exchange.getResponseHeaders().set("X-Encoded", "gzip");
    exchange.getResponseHeaders().set("Content-Encoding", "gzip");
    respond(exchange, 200, "application/json", bytes.toByteArray());
  }

  private static void streamed(HttpExchange exchange) throws IOException {
    byte[] body = stream();
    int firstPart = 64 * 1024;
    exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body, 0, firstPart);
      out.flush();
      try {
        Thread.sleep(STREAM_PAUSE_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      out.write(body, firstPart, body.length - firstPart);
    }
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static void respond(HttpExchange exchange, int status, String type, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    handlers.shutdownNow();
  }
}
