package io.levee.demo.partner;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pricing partner the demo application calls: a tiny JDK HTTP server outside the protected
 * application, so that it can count for itself how many calls reach it ("partner spared").
 *
 * <ul>
 *   <li>{@code GET /partner/price?sku=…}: a price after about 20 ms; in mode {@code failing} a 500
 *       at once; in mode {@code slow} a price after 3 s.
 *   <li>{@code POST|GET /control?mode=healthy|failing|slow}: switches the mode.
 * </ul>
 *
 * <p>Concurrency: handlers run on a small pool; {@code mode} is volatile, the count an atomic.
 */
public final class Partner implements AutoCloseable {
  public enum Mode {
    HEALTHY,
    FAILING,
    SLOW
  }

  private static final long HEALTHY_MILLIS = 20;
  private static final long SLOW_MILLIS = 3_000;

  private final HttpServer server;
  private final ExecutorService pool;
  private final AtomicLong calls = new AtomicLong();
  private volatile Mode mode = Mode.HEALTHY;

  private Partner(HttpServer server, ExecutorService pool) {
    this.server = server;
    this.pool = pool;
  }

  /** Starts the partner on 127.0.0.1 at {@code port} (0: any free port). */
  public static Partner start(int port) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 200);
    ExecutorService pool =
        Executors.newFixedThreadPool(
            32,
            r -> {
              Thread t = new Thread(r, "partner");
              t.setDaemon(true);
              return t;
            });
    Partner partner = new Partner(server, pool);
    server.createContext("/partner/price", partner::price);
    server.createContext("/control", partner::control);
    server.setExecutor(pool);
    server.start();
    return partner;
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public void mode(Mode mode) {
    this.mode = mode;
  }

  public Mode mode() {
    return mode;
  }

  /** Calls that reached the partner since it started, whatever it answered. */
  public long calls() {
    return calls.get();
  }

  private void price(HttpExchange exchange) throws IOException {
    calls.incrementAndGet();
    Mode now = mode;
    if (now == Mode.FAILING) {
      send(exchange, 500, "{\"error\":\"pricing backend down\"}");
      return;
    }
    sleep(now == Mode.SLOW ? SLOW_MILLIS : HEALTHY_MILLIS);
    send(exchange, 200, "{\"price\":42.50,\"currency\":\"EUR\",\"source\":\"partner\"}");
  }

  private void control(HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getQuery();
    if (query != null && query.startsWith("mode=")) {
      try {
        mode = Mode.valueOf(query.substring(5).toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        send(exchange, 400, "{\"error\":\"mode is healthy, failing or slow\"}");
        return;
      }
    }
    send(
        exchange,
        200,
        "{\"mode\":\""
            + mode.name().toLowerCase(Locale.ROOT)
            + "\",\"calls\":"
            + calls.get()
            + "}");
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void send(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }

  /** Runs the partner alone: {@code Partner [PORT]}. */
  public static void main(String[] args) throws IOException {
    Partner partner = start(args.length > 0 ? Integer.parseInt(args[0]) : 8081);
    System.out.println("partner listening on " + partner.url());
  }
}
