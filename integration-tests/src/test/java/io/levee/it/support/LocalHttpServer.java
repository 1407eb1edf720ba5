package io.levee.it.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The remote end of the outbound HTTP tests, on 127.0.0.1, told by the test how to behave: answer
 * {@link #ok()}, {@link #fail()} with 500, {@link #stall()} (accept and never answer), {@link
 * #slow(long)}, or {@link #refuse()} connections; it counts the requests it received, in all and
 * per second since it started ({@link #receivedIn(int)}, the first hour).
 *
 * <p>Concurrency: the behaviour fields are volatile, written by the test thread and read by the
 * server's handler threads; stalled handlers wait on a latch that {@link #close()} releases. The
 * counts are atomic; a reader sees each second's count as it stands.
 */
public final class LocalHttpServer implements AutoCloseable {
  private enum Mode {
    OK,
    FAIL,
    STALL,
    SLOW
  }

  private static final int SERIES_SECONDS = 3600;

  private final int port;
  private final long startedAt = System.nanoTime();
  private final AtomicInteger received = new AtomicInteger();
  private final AtomicIntegerArray perSecond = new AtomicIntegerArray(SERIES_SECONDS);
  private final ExecutorService handlers = Executors.newCachedThreadPool(daemon());
  private final CountDownLatch released = new CountDownLatch(1);
  private volatile Mode mode = Mode.OK;
  private volatile long slowMillis;
  private HttpServer server;

  private LocalHttpServer(int port) throws IOException {
    this.server = bind(port);
    this.port = server.getAddress().getPort();
  }

  /** Starts on a free port, answering 200. */
  public static LocalHttpServer start() {
    try {
      return new LocalHttpServer(0);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  public int port() {
    return port;
  }

  /** {@code http://127.0.0.1:<port><path>} */
  public String url(String path) {
    return "http://127.0.0.1:" + port + path;
  }

  /** Requests the server has read (refused connections are not requests). */
  public int received() {
    return received.get();
  }

  /** Whole seconds since the server started: the second {@link #receivedIn(int)} now counts. */
  public int second() {
    return (int) ((System.nanoTime() - startedAt) / 1_000_000_000L);
  }

  /** Requests read during {@code second} (as {@link #second()} numbers them); 0 after an hour. */
  public int receivedIn(int second) {
    return second >= 0 && second < SERIES_SECONDS ? perSecond.get(second) : 0;
  }

  public synchronized LocalHttpServer ok() {
    listen();
    mode = Mode.OK;
    return this;
  }

  public synchronized LocalHttpServer fail() {
    listen();
    mode = Mode.FAIL;
    return this;
  }

  public synchronized LocalHttpServer stall() {
    listen();
    mode = Mode.STALL;
    return this;
  }

  public synchronized LocalHttpServer slow(long millis) {
    listen();
    slowMillis = millis;
    mode = Mode.SLOW;
    return this;
  }

  /** Closes the listening socket, so that connections are refused until another mode is set. */
  public synchronized LocalHttpServer refuse() {
    if (server != null) {
      server.stop(0);
      server = null;
    }
    return this;
  }

  @Override
  public synchronized void close() {
    released.countDown();
    refuse();
    handlers.shutdownNow();
  }

  private void listen() {
    if (server == null) {
      try {
        server = bind(port);
      } catch (IOException e) {
        throw new IllegalStateException("cannot listen again on port " + port, e);
      }
    }
  }

  private HttpServer bind(int onPort) throws IOException {
    HttpServer s =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), onPort), 50);
    s.createContext("/", this::handle);
    s.setExecutor(handlers);
    s.start();
    return s;
  }

  private void handle(HttpExchange exchange) throws IOException {
    received.incrementAndGet();
    int second = second();
    if (second < SERIES_SECONDS) {
      perSecond.incrementAndGet(second);
    }
    exchange.getRequestBody().readAllBytes();
    try {
      switch (mode) {
        case FAIL:
          respond(exchange, 500, "failing on purpose");
          break;
        case STALL:
          released.await(5, TimeUnit.MINUTES);
          exchange.close();
          break;
        case SLOW:
          Thread.sleep(slowMillis);
          respond(exchange, 200, "slow ok");
          break;
        default:
          respond(exchange, 200, "ok");
      }
    } catch (InterruptedException e) {
      exchange.close();
      Thread.currentThread().interrupt();
    }
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static java.util.concurrent.ThreadFactory daemon() {
    return r -> {
      Thread t = new Thread(r, "local-http-server");
      t.setDaemon(true);
      return t;
    };
  }
}
