package io.levee.load.gen;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The downstream partner of the application: {@code /slow} answers after a latency that can be
 * changed at any time ({@link #setLatencyMillis}), {@code /fast} at once. A delayed answer waits in
 * a scheduler, not in a sleeping thread, so 400 ms × 600 calls/s costs the stub no threads.
 */
public final class Stub implements AutoCloseable {
  private static final byte[] BODY = "ok from the stub\n".getBytes(StandardCharsets.US_ASCII);

  private final HttpServer server;
  private final ScheduledExecutorService delays = Executors.newScheduledThreadPool(2);
  private final ExecutorService workers = Executors.newFixedThreadPool(4);
  private volatile long latencyMillis = 20;

  public Stub(int port) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1000);
    server.setExecutor(workers);
    server.createContext("/fast", this::answer);
    server.createContext(
        "/slow",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          delays.schedule(() -> answer(exchange), latencyMillis, TimeUnit.MILLISECONDS);
        });
    server.start();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public void setLatencyMillis(long millis) {
    latencyMillis = millis;
  }

  private void answer(HttpExchange exchange) {
    try {
      exchange.getRequestBody().readAllBytes();
      exchange.sendResponseHeaders(200, BODY.length);
      OutputStream out = exchange.getResponseBody();
      out.write(BODY);
      out.close();
    } catch (IOException e) {
      // the application gave up on this call; nothing to answer
    } finally {
      exchange.close();
    }
  }

  @Override
  public void close() {
    server.stop(0);
    delays.shutdownNow();
    workers.shutdownNow();
  }
}
