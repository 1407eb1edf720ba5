package io.levee.agent.endpoint;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.levee.agent.log.EventLog;
import io.levee.agent.metrics.PrometheusText;
import io.levee.rules.engine.Engine;
import io.levee.rules.model.RuleSet;
import io.levee.rules.policy.adaptive.CpuSource;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.Charset;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The optional local endpoint of the {@code http} option, on the JDK's own HTTP server, GET or HEAD
 * only: {@code /} the live page, {@code /samples} its data, {@code /metrics} in the Prometheus text
 * format and {@code /status} as JSON. It never starts unless asked, listens where {@link
 * EndpointAddress} says (loopback unless the operator wrote a host), only reads, and {@link
 * #close()} frees the port.
 *
 * <p>Requests are served by one daemon thread, {@code levee-http}: a scrape or a page's poll is
 * cheap and rare. Another, {@code levee-samples}, takes one {@link Samples sample} a second, so the
 * page shows the last minutes as soon as it opens. The server is started from a daemon thread too,
 * because the JDK's dispatcher thread inherits that from its creator and must not keep the
 * application's JVM alive.
 *
 * <p>Concurrency: the handlers read the engine and the registry, both safe to read from any thread;
 * start and close are called once each by the owner.
 */
public final class LocalEndpoint implements Closeable {
  private static final Charset UTF_8 = Charset.forName("UTF-8");
  private static final String JSON = "application/json; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService executor;
  private final ScheduledExecutorService sampler;
  private final EndpointAddress requested;

  private LocalEndpoint(
      HttpServer server,
      ExecutorService executor,
      ScheduledExecutorService sampler,
      EndpointAddress requested) {
    this.server = server;
    this.executor = executor;
    this.sampler = sampler;
    this.requested = requested;
  }

  /**
   * Binds and starts the endpoint. {@code registry} supplies {@code /metrics}, {@code engine}
   * {@code /status} and, with {@code cpu}, the page's samples; {@code events} tells when the rules
   * were loaded and the last rejected reload.
   *
   * @throws IOException when the address cannot be bound (in use, not local)
   */
  public static LocalEndpoint start(
      final EndpointAddress address,
      final Engine engine,
      final MeterRegistry registry,
      CpuSource cpu,
      final RulesEvents events,
      final EventLog log)
      throws IOException {
    final Samples samples = new Samples(engine, cpu);
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
                  Map<String, Content> paths = new HashMap<String, Content>();
                  paths.put("/", new LivePage());
                  paths.put("/samples", new SampleData(samples));
                  paths.put("/metrics", new Metrics(registry));
                  paths.put("/status", new Status(engine, events));
                  server.createContext("/", new Paths(paths));
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
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(SAMPLER);
    sampler.scheduleAtFixedRate(new Sampling(samples, log), 0, 1, TimeUnit.SECONDS);
    LocalEndpoint endpoint = new LocalEndpoint((HttpServer) started, executor, sampler, address);
    if (address.exposed()) {
      log.warn(
          "the endpoint at http://"
              + endpoint.address()
              + "/ is reachable from other hosts (http="
              + address
              + " was written): it shows the resources and their traffic; bind it to 127.0.0.1"
              + " unless a firewall protects it");
    } else {
      log.info("serving the live page, /metrics and /status at http://" + endpoint.address() + "/");
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
    sampler.shutdownNow();
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(1, TimeUnit.SECONDS);
      sampler.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static final ThreadFactory DAEMON = new Daemons("levee-http");
  private static final ThreadFactory SAMPLER = new Daemons("levee-samples");

  private static final class Daemons implements ThreadFactory {
    private final String name;

    Daemons(String name) {
      this.name = name;
    }

    @Override
    public Thread newThread(Runnable r) {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      t.setContextClassLoader(null);
      return t;
    }
  }

  /** One sample a second; a failure is logged once and the sampling goes on. */
  private static final class Sampling implements Runnable {
    private final Samples samples;
    private final EventLog log;
    private boolean failed;

    Sampling(Samples samples, EventLog log) {
      this.samples = samples;
      this.log = log;
    }

    @Override
    public void run() {
      try {
        samples.take(System.currentTimeMillis());
      } catch (Throwable t) {
        if (!failed) {
          failed = true;
          log.error("the live page's sampling failed (" + t + "): its charts may have gaps");
        }
      }
    }
  }

  /** What a path answers: its content type and body, computed per request. */
  private interface Content {
    String type();

    /** {@code query}: the request's raw query string, or null. */
    String body(String query);
  }

  /** The live page: one HTML file of the agent jar, read at the first request. */
  private static final class LivePage implements Content {
    private volatile String html;

    @Override
    public String type() {
      return "text/html; charset=utf-8";
    }

    @Override
    public String body(String query) {
      String page = html;
      if (page == null) {
        page = html = PageResource.read();
      }
      return page;
    }
  }

  /** {@code /samples?since=MILLIS}: the samples stamped after MILLIS (all without it). */
  private static final class SampleData implements Content {
    private final Samples samples;

    SampleData(Samples samples) {
      this.samples = samples;
    }

    @Override
    public String type() {
      return JSON;
    }

    @Override
    public String body(String query) {
      long since = 0;
      if (query != null && query.startsWith("since=")) {
        try {
          since = Long.parseLong(query.substring("since=".length()));
        } catch (NumberFormatException ignored) {
          // An unreadable bound asks for everything: the page reads what it did not have.
        }
      }
      return samples.since(since);
    }
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
    public String body(String query) {
      return PrometheusText.write(registry);
    }
  }

  private static final class Status implements Content {
    private final Engine engine;
    private final RulesEvents events;

    Status(Engine engine, RulesEvents events) {
      this.engine = engine;
      this.events = events;
    }

    @Override
    public String type() {
      return JSON;
    }

    @Override
    public String body(String query) {
      RuleSet rules = engine.rules();
      return StatusJson.write(
          rules.source, engine.status(), rules.settings.cluster, engine.clusterConnected(), events);
    }
  }

  private static final class Paths implements HttpHandler {
    private final Map<String, Content> paths;

    Paths(Map<String, Content> paths) {
      this.paths = paths;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
      try {
        String method = exchange.getRequestMethod();
        boolean head = "HEAD".equals(method);
        Content content = paths.get(exchange.getRequestURI().getPath());
        if (content == null) {
          plain(exchange, 404, "not found: try /, /metrics or /status\n", head);
        } else if (!head && !"GET".equals(method)) {
          exchange.getResponseHeaders().set("Allow", "GET, HEAD");
          plain(exchange, 405, "only GET and HEAD\n", false);
        } else {
          String body = content.body(exchange.getRequestURI().getRawQuery());
          send(exchange, 200, content.type(), body, head);
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
