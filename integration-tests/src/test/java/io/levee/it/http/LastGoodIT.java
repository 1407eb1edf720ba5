package io.levee.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.levee.it.apps.LastGoodApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The last good answer for {@code HttpURLConnection} (SPEC §5.1, {@code fallback.last-good}) on JDK
 * 17, with the packaged agent in a forked application and a real local partner: good answers are
 * kept as the application reads them, and once the breaker opens a {@code GET} gets the last good
 * answer of its URL, marked {@code Levee-Fallback}, without the partner being contacted; then the
 * static fallback once the answer is too old, and always for what must not be kept. Each test has
 * its own partner and resource, so their breakers stay apart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LastGoodIT {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: prices
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 5, window: 60s, open-for: 60s }
          on-block:
            fallback:
              last-good: 6s
              status: 503
              body: static
              headers: { Content-Type: text/plain }
              max-body: 64KiB
              max-entries: 10
        - name: catalogue
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 5, window: 60s, open-for: 60s }
          on-block:
            fallback: { last-good: 5m, max-body: 1MiB, body: static }
      """;

  /** The streamed body: long, in chunks, with a pause after the first part. */
  private static final int STREAM_LENGTH = 512 * 1024;

  private static final int STREAM_PAUSE_MS = 1500;

  private final Partner prices = new Partner();
  private final Partner catalogue = new Partner();
  private ForkedApp app;
  private AppClient client;

  @BeforeAll
  void start() {
    String rules = RULES.formatted(prices.port(), catalogue.port());
    app =
        ForkedApp.of(LastGoodApp.class)
            .jdk(Jdk.require(17))
            .rules(RulesFile.write("last-good-jdk17", rules))
            .name("last-good-jdk17")
            .start();
    client = new AppClient(app);
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
    prices.close();
    catalogue.close();
  }

  @Test
  void servesTheLastGoodAnswerWhileOpenThenTheStaticFallbackOnceItIsTooOld() {
    Reply first = get(prices, "/prices", "");
    assertThat(first.get("status")).as(first.raw()).isEqualTo("200");
    prices.version.set(2);
    Reply good = get(prices, "/prices", "");
    long keptAt = System.nanoTime();
    assertThat(good.get("body")).isEqualTo("{\"eur\":2}");
    Reply redirected = get(prices, "/moved", "");
    assertThat(redirected.get("body")).as(redirected.raw()).isEqualTo("{\"eur\":2}");
    assertThat(get(prices, "/nostore", "").get("status")).isEqualTo("200");
    assertThat(get(prices, "/private", "").get("status")).isEqualTo("200");
    assertThat(get(prices, "/big", "").number("length")).isEqualTo(Partner.BIG);
    assertThat(get(prices, "/big-chunked", "").number("length")).isEqualTo(Partner.BIG);
    Reply partial = get(prices, "/partial", "&readBytes=10");
    assertThat(partial.number("length")).as(partial.raw()).isEqualTo(10);

    int receivedWhenOpen = open(prices);

    Reply kept = get(prices, "/prices", "");
    assertThat(kept.get("status")).as(kept.raw()).isEqualTo("200");
    assertThat(kept.get("body")).isEqualTo("{\"eur\":2}");
    assertThat(kept.get("Content-Type")).isEqualTo("application/json");
    assertThat(kept.get("X-Version")).isEqualTo("2");
    assertThat(kept.get("Content-Length")).isEqualTo("9");
    assertThat(kept.get("Levee-Fallback")).matches("last-good; age=[0-6]");
    Reply movedKept = get(prices, "/moved", "");
    assertThat(movedKept.get("body")).as("kept under the URL asked for").isEqualTo("{\"eur\":2}");
    assertThat(movedKept.get("Levee-Fallback")).startsWith("last-good");
    for (String notKept :
        new String[] {"/nostore", "/private", "/big", "/big-chunked", "/partial"}) {
      Reply r = get(prices, notKept, "");
      assertThat(r.get("status")).as(notKept + ": " + r.raw()).isEqualTo("503");
      assertThat(r.get("body")).as(notKept).isEqualTo("static");
      assertThat(r.get("Levee-Fallback")).as(notKept).isEmpty();
    }
    assertThat(prices.received()).as("the partner is not contacted").isEqualTo(receivedWhenOpen);

    ForkedApp.sleep(Math.max(0, 6_500 - (System.nanoTime() - keptAt) / 1_000_000));
    Reply old = get(prices, "/prices", "");
    assertThat(old.get("status")).as(old.raw()).isEqualTo("503");
    assertThat(old.get("body")).isEqualTo("static");
    assertThat(old.get("Levee-Fallback")).isEmpty();
    assertThat(prices.received()).isEqualTo(receivedWhenOpen);
  }

  @Test
  void aStreamedBodyStillStreamsAndIsServedWholeOnceTheBreakerOpens() throws Exception {
    Reply live = get(catalogue, "/stream", "&buffer=4096");
    assertThat(live.get("status")).as(live.raw()).isEqualTo("200");
    assertThat(live.get("Transfer-Encoding")).isEqualTo("chunked");
    assertThat(live.number("length")).isEqualTo(STREAM_LENGTH);
    assertThat(live.get("sha256")).isEqualTo(Partner.streamSha256());
    assertThat(live.number("reads")).isGreaterThan(STREAM_LENGTH / 4096 / 2);
    // the first part reached the application while the partner still held the rest back
    assertThat(live.number("lastByteMs") - live.number("firstByteMs"))
        .as(live.raw())
        .isGreaterThanOrEqualTo(STREAM_PAUSE_MS - 300);

    int receivedWhenOpen = open(catalogue);

    Reply kept = get(catalogue, "/stream", "&buffer=1000");
    assertThat(kept.get("status")).as(kept.raw()).isEqualTo("200");
    assertThat(kept.get("Levee-Fallback")).matches("last-good; age=\\d+");
    assertThat(kept.get("Transfer-Encoding")).isEmpty();
    assertThat(kept.get("Content-Length")).isEqualTo(Integer.toString(STREAM_LENGTH));
    assertThat(kept.number("length")).isEqualTo(STREAM_LENGTH);
    assertThat(kept.get("sha256")).isEqualTo(Partner.streamSha256());
    assertThat(catalogue.received()).isEqualTo(receivedWhenOpen);
  }

  /** Fails the partner until the breaker opens; the requests it had received by then. */
  private int open(Partner partner) {
    partner.failing = true;
    for (int i = 0; i < 30; i++) {
      Reply r = get(partner, "/other", "");
      if ("static".equals(r.get("body"))) {
        return partner.received();
      }
      assertThat(r.get("status")).as(r.raw()).isEqualTo("500");
    }
    throw new AssertionError("the breaker did not open");
  }

  private Reply get(Partner partner, String path, String extra) {
    String url = AppClient.encode(partner.url(path));
    return Reply.parse(client.get("/get?url=" + url + extra).body());
  }

  /**
   * The partner: a JSON price list whose version the test moves, a redirect to it, answers marked
   * {@code no-store} or {@code private}, bodies over 64 KiB with and without a length, one the
   * application reads only in part, and a long chunked body sent in two parts with a pause; or 500
   * for everything once {@link #failing}. Counts the requests it reads.
   */
  private static final class Partner implements AutoCloseable {
    static final int BIG = 70 * 1024;

    final AtomicInteger version = new AtomicInteger(1);
    volatile boolean failing;
    private final AtomicInteger received = new AtomicInteger();
    private final ExecutorService handlers = Executors.newCachedThreadPool();
    private final HttpServer server;

    Partner() {
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
        case "/partial" -> respond(exchange, 200, "application/octet-stream", new byte[1000]);
        case "/stream" -> streamed(exchange);
        default -> respond(exchange, 200, "text/plain", utf8("ok"));
      }
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
}
