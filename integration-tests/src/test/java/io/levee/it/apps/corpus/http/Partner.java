package io.levee.it.apps.corpus.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

/**
 * The partner every HTTP client of the corpus talks to, in the client's own JVM: the same answers,
 * byte for byte, on every run (no {@code Date} is compared). Plain answers, errors, a redirect, a
 * chunked and a gzipped body, repeated headers, an echo of a request body, and a port that refuses.
 */
public final class Partner implements AutoCloseable {
  private final HttpServer server;
  private final Socket refusing;

  private Partner(HttpServer server, Socket refusing) {
    this.server = server;
    this.refusing = refusing;
  }

  public static Partner start() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
    server.createContext("/", Partner::answer);
    server.start();
    // Bound but never listening: connecting to it is refused, and while the partner runs no other
    // program (another run of the corpus beside this one) can take the port and answer.
    Socket refusing = new Socket();
    refusing.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    return new Partner(server, refusing);
  }

  /** {@code http://127.0.0.1:PORT} of the server. */
  public String base() {
    return "http://127.0.0.1:" + port();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public int refusedPort() {
    return refusing.getLocalPort();
  }

  /** A port nothing listens on. */
  public String refused() {
    return "http://127.0.0.1:" + refusedPort();
  }

  @Override
  public void close() throws IOException {
    server.stop(0);
    refusing.close();
  }

  private static void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    byte[] request = exchange.getRequestBody().readAllBytes();
    exchange.getResponseHeaders().add("X-Partner", "corpus");
    switch (path) {
      case "/text" -> send(exchange, 200, "text/plain; charset=utf-8", "hello, client\n");
      case "/json" ->
          send(
              exchange,
              200,
              "application/json",
              "{\"query\":\"" + exchange.getRequestURI().getQuery() + "\"}");
      case "/echo" ->
          send(
              exchange,
              201,
              "text/plain",
              exchange.getRequestMethod() + " " + new String(request, StandardCharsets.UTF_8));
      case "/missing" -> send(exchange, 404, "text/plain", "no such thing\n");
      case "/broken" -> send(exchange, 500, "application/json", "{\"error\":\"broken\"}");
      case "/redirect" -> {
        exchange.getResponseHeaders().add("Location", "/text");
        exchange.sendResponseHeaders(302, -1);
        exchange.close();
      }
      case "/empty" -> {
        exchange.sendResponseHeaders(204, -1);
        exchange.close();
      }
      case "/headers" -> {
        exchange.getResponseHeaders().add("X-Many", "one");
        exchange.getResponseHeaders().add("X-Many", "two");
        exchange.getResponseHeaders().add("Cache-Control", "no-store");
        send(exchange, 200, "text/plain", "headers\n");
      }
      case "/chunked" -> chunked(exchange);
      case "/gzip" -> gzip(exchange);
      default -> send(exchange, 404, "text/plain", "unknown " + path + "\n");
    }
  }

  private static void send(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", type);
    boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
    exchange.close();
  }

  /** 64 KiB of a known pattern, written in pieces with no length, so it goes out chunked. */
  private static void chunked(HttpExchange exchange) throws IOException {
    exchange.getResponseHeaders().add("Content-Type", "application/octet-stream");
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream out = exchange.getResponseBody()) {
      byte[] piece = new byte[4096];
      for (int i = 0; i < 16; i++) {
        for (int j = 0; j < piece.length; j++) {
          piece[j] = (byte) (i * 31 + j);
        }
        out.write(piece);
        out.flush();
      }
    }
    exchange.close();
  }

  private static void gzip(HttpExchange exchange) throws IOException {
    exchange.getResponseHeaders().add("Content-Type", "text/plain");
    exchange.getResponseHeaders().add("Content-Encoding", "gzip");
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream out = new GZIPOutputStream(exchange.getResponseBody())) {
      out.write("compressed hello\n".repeat(50).getBytes(StandardCharsets.UTF_8));
    }
    exchange.close();
  }
}
