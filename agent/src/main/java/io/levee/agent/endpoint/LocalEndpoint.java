package io.levee.agent.endpoint;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.levee.agent.log.EventLog;
import io.levee.agent.metrics.PrometheusText;
import io.levee.rules.engine.Engine;
import io.levee.rules.model.RuleSet;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.Charset;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The optional local endpoint of the {@code http} option, on the JDK's own HTTP server: {@code
 * /metrics} in the Prometheus text format and {@code /status} as JSON, GET or HEAD only. It never
 * starts unless asked, listens where {@link EndpointAddress} says (loopback unless the operator
 * wrote a host), and {@link #close()} frees the port.
 *
 * <p>Requests are served by one daemon thread, {@code levee-http}: a scrape is cheap and rare. The
 * server is started from a daemon thread too, because the JDK's dispatcher thread inherits that
 * from its creator and must not keep the application's JVM alive.
 *
 * <p>Concurrency: the handlers read the engine and the registry, both safe to read from any thread;
 * start and close are called once each by the owner.
 */
public final class LocalEndpoint implements Closeable {
  private static final Charset UTF_8 = Charset.forName("UTF-8");
  private static final String JSON = "application/json; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService executor;
  private final EndpointAddress requested;

  private LocalEndpoint(HttpServer server, ExecutorService executor, EndpointAddress requested) {
    this.server = server;
    this.executor = executor;
    this.requested = requested;
  }

  /**
   * Binds and starts the endpoint. {@code registry} supplies {@code /metrics}, {@code engine}
   * {@code /status}.
   *
   * @throws IOException when the address cannot be bound (in use, not local)
   */
  public static LocalEndpoint start(
      final EndpointAddress address,
      final Engine engine,
      final MeterRegistry registry,
      EventLog log)
      throws IOException {
    final ExecutorService executor =
        new ThreadPoolExecutor(
            1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<Runnable>(64), DAEMON);
    final AtomicReference<Object> result = new AtomicReference<Object>();
    Thread starter =
        DAEMON.newThread(
            new Runnable() {
              @Override
              public void run() {
                try {
                  HttpServer server = HttpServer.create(address.socket(), 16);
                  server.setExecutor(executor);
                  server.createContext("/metrics", new Page(new Metrics(registry)));
                  server.createContext("/status", new Page(new Status(engine)));
                  server.start();
                  result.set(server);
                } catch (Throwable e) {
                  result.set(e);
                }
              }
            });
    starter.start();
    try {
      starter.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Object started = result.get();
    if (!(started instanceof HttpServer)) {
      executor.shutdownNow();
      if (started instanceof IOException) {
        throw (IOException) started;
      }
      throw new IOException("could not start the endpoint on " + address, (Throwable) started);
    }
    LocalEndpoint endpoint = new LocalEndpoint((HttpServer) started, executor, address);
    if (address.exposed()) {
      log.warn(
          "the endpoint at http://"
              + endpoint.address()
              + "/ is reachable from other hosts (http="
              + address
              + " was written): it shows the resources and their traffic; bind it to 127.0.0.1"
              + " unless a firewall protects it");
    } else {
      log.info("serving /metrics and /status at http://" + endpoint.address() + "/");
    }
    return endpoint;
  }

  /** The address and port bound (the real port when port 0 was asked for). */
  public EndpointAddress address() {
    InetSocketAddress bound = server.getAddress();
    return requested.socket().getPort() == bound.getPort()
        ? requested
        : EndpointAddress.bound(requested, bound.getPort());
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static final ThreadFactory DAEMON =
      new ThreadFactory() {
        @Override
        public Thread newThread(Runnable r) {
          Thread t = new Thread(r, "levee-http");
          t.setDaemon(true);
          t.setContextClassLoader(null);
          return t;
        }
      };

  /** What a path answers: its content type and body, computed per request. */
  private interface Content {
    String type();

    String body();
  }

  private static final class Metrics implements Content {
    private final MeterRegistry registry;

    Metrics(MeterRegistry registry) {
      this.registry = registry;
    }

    @Override
    public String type() {
      return PrometheusText.CONTENT_TYPE;
    }

    @Override
    public String body() {
      return PrometheusText.write(registry);
    }
  }

  private static final class Status implements Content {
    private final Engine engine;

    Status(Engine engine) {
      this.engine = engine;
    }

    @Override
    public String type() {
      return JSON;
    }

    @Override
    public String body() {
      RuleSet rules = engine.rules();
      return StatusJson.write(
          rules.source, engine.status(), rules.settings.cluster, engine.clusterConnected());
    }
  }

  private static final class Page implements HttpHandler {
    private final Content content;

    Page(Content content) {
      this.content = content;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
      try {
        String method = exchange.getRequestMethod();
        boolean head = "HEAD".equals(method);
        String path = exchange.getRequestURI().getPath();
        if (!"/metrics".equals(path) && !"/status".equals(path)) {
          plain(exchange, 404, "not found: try /metrics or /status\n", head);
        } else if (!head && !"GET".equals(method)) {
          exchange.getResponseHeaders().set("Allow", "GET, HEAD");
          plain(exchange, 405, "only GET and HEAD\n", false);
        } else {
          send(exchange, 200, content.type(), content.body(), head);
        }
      } catch (RuntimeException e) {
        plain(exchange, 500, "levee: " + e + "\n", false);
      } finally {
        exchange.close();
      }
    }

    private static void plain(HttpExchange exchange, int status, String text, boolean head)
        throws IOException {
      send(exchange, status, "text/plain; charset=utf-8", text, head);
    }

    private static void send(
        HttpExchange exchange, int status, String type, String body, boolean head)
        throws IOException {
      byte[] bytes = body.getBytes(UTF_8);
      exchange.getResponseHeaders().set("Content-Type", type);
      exchange.getResponseHeaders().set("Cache-Control", "no-store");
      if (head) {
        exchange.getResponseHeaders().set("Content-Length", String.valueOf(bytes.length));
        exchange.sendResponseHeaders(status, -1);
        return;
      }
      exchange.sendResponseHeaders(status, bytes.length);
      OutputStream out = exchange.getResponseBody();
      out.write(bytes);
      out.close();
    }
  }
}
