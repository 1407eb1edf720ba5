package io.levee.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the agent promises for outbound calls through the JDK's {@code java.net.http.HttpClient}
 * (SPEC §5.1): the same rules as for {@code HttpURLConnection}, a blocked {@code send} throwing an
 * {@code IOException} and a blocked {@code sendAsync} returning a future completed with one, a
 * fallback as the client's own {@code HttpResponse} made by each of the caller's body handlers,
 * exact limits under parallel callers, and the permit's timeouts where the application set none.
 * Each test has its own local server, and the rules name each server's port.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class JdkClientContract {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: flaky
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 5, window: 10s, open-for: 2s, half-open-calls: 2 }
        - name: degraded
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 5, window: 10s, open-for: 60s }
          on-block:
            fallback: { status: 503, body: "{\\"status\\":\\"degraded\\"}\\nsecond line", headers: { Content-Type: application/json } }
        - name: metered
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          rate-limit: { rate: 5/h, burst: 5 }
        - name: narrow
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          concurrency: { max: 3 }
        - name: stalled
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          timeouts: { read: 500ms }
        - name: unreachable
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          timeouts: { connect: 500ms }
      """;

  private static final String FALLBACK = "{\"status\":\"degraded\"}\nsecond line";
  private static final List<String> HANDLERS = List.of("string", "bytes", "stream", "lines");

  private final LocalHttpServer flaky = LocalHttpServer.start();
  private final LocalHttpServer degraded = LocalHttpServer.start();
  private final LocalHttpServer metered = LocalHttpServer.start();
  private final LocalHttpServer narrow = LocalHttpServer.start().slow(3_000);
  private final LocalHttpServer stalled = LocalHttpServer.start().stall();
  private final LocalHttpServer unprotected = LocalHttpServer.start();
  private final FullBacklog unreachable = new FullBacklog();
  private ForkedApp app;
  private AppClient client;

  /** The application's main class: the container does not matter to outbound calls. */
  protected abstract Class<?> application();

  protected abstract int jdk();

  private String name() {
    return "jdkclient-jdk" + jdk();
  }

  @BeforeAll
  void start() {
    String rules =
        RULES.formatted(
            flaky.port(),
            degraded.port(),
            metered.port(),
            narrow.port(),
            stalled.port(),
            unreachable.port());
    app =
        ForkedApp.of(application())
            .jdk(Jdk.require(jdk()))
            .rules(RulesFile.write(name(), rules))
            .name(name())
            .start();
    client = new AppClient(app);
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
    Stream.of(flaky, degraded, metered, narrow, stalled, unprotected)
        .forEach(LocalHttpServer::close);
    unreachable.close();
  }

  @Test
  void opensOnFailuresFailsFastWhileOpenAndRecoversWhenTheServerHeals() throws Exception {
    flaky.fail();
    for (int i = 0; i < 5; i++) {
      assertThat(call(flaky, i % 2 == 0 ? "" : "&api=async").get("status")).isEqualTo("500");
    }
    int receivedWhenOpened = flaky.received();

    Reply sent = call(flaky, "");
    assertThat(sent.get("outcome")).as(sent.raw()).isEqualTo("exception");
    assertThat(sent.get("failedAs")).isEqualTo("thrown");
    assertThat(sent.get("class")).isEqualTo("java.io.IOException");
    assertThat(sent.get("message")).startsWith("levee:").contains("flaky");
    Reply async = call(flaky, "&api=async");
    assertThat(async.get("failedAs")).as(async.raw()).isEqualTo("future");
    assertThat(async.get("class")).isEqualTo("java.io.IOException");
    assertThat(async.get("message")).startsWith("levee:").contains("flaky");
    Reply many = call(flaky, "&repeat=100");
    assertThat(many.number("leveeExceptions")).as(many.raw()).isEqualTo(100);
    assertThat(flaky.received()).isEqualTo(receivedWhenOpened);

    flaky.ok();
    long deadline = System.nanoTime() + 15_000_000_000L;
    int consecutive = 0;
    while (consecutive < 5 && System.nanoTime() < deadline) {
      Reply r = call(flaky, "");
      consecutive = "200".equals(r.get("status")) ? consecutive + 1 : 0;
      Thread.sleep(consecutive == 0 ? 200 : 20);
    }
    assertThat(consecutive).as("closed again once the server healed").isEqualTo(5);
  }

  @Test
  void answersWithTheFallbackThroughEachBodyHandlerWithoutContactingTheServer() {
    degraded.refuse();
    for (int i = 0; i < 5; i++) {
      Reply r = call(degraded, "");
      assertThat(r.get("class")).as(r.raw()).isEqualTo("java.net.ConnectException");
    }
    degraded.ok();
    for (String api : List.of("send", "async")) {
      for (String handler : HANDLERS) {
        Reply r = call(degraded, "&api=" + api + "&body=" + handler);
        assertThat(r.get("outcome")).as(api + " " + handler + ": " + r.raw()).isEqualTo("response");
        assertThat(r.get("status")).isEqualTo("503");
        assertThat(r.get("body")).isEqualTo(FALLBACK);
        assertThat(r.get("contentType")).isEqualTo("application/json");
      }
    }
    assertThat(degraded.received()).isZero();
  }

  @Test
  void aRateLimitAdmitsExactlyItsBurstOfParallelCallers() {
    Reply r = call(metered, "&parallel=12");

    assertThat(r.number("responses")).as(r.raw()).isEqualTo(5);
    assertThat(r.number("leveeExceptions")).isEqualTo(7);
    assertThat(r.number("otherExceptions")).isZero();
    assertThat(metered.received()).isEqualTo(5);
  }

  @Test
  void aConcurrencyLimitAdmitsExactlyItsMaximumOfParallelCallers() {
    Reply r = call(narrow, "&parallel=10&api=async");

    assertThat(r.number("responses")).as(r.raw()).isEqualTo(3);
    assertThat(r.number("leveeExceptions")).isEqualTo(7);
    assertThat(narrow.received()).isEqualTo(3);
  }

  @Test
  void appliesTheReadTimeoutAsTheRequestTimeoutWhereTheRequestHasNone() {
    Reply r = call(stalled, "");

    assertThat(r.get("class")).as(r.raw()).isEqualTo("java.net.http.HttpTimeoutException");
    assertThat(r.number("elapsedMs")).isBetween(400L, 3_000L);
  }

  @Test
  void keepsTheRequestsOwnTimeout() {
    Reply r = call(stalled, "&timeout=1500&api=async");

    assertThat(r.get("class")).as(r.raw()).isEqualTo("java.net.http.HttpTimeoutException");
    assertThat(r.number("elapsedMs")).isBetween(1_400L, 5_000L);
  }

  @Test
  void appliesTheConnectTimeoutWhereTheClientHasNone() {
    Reply r = call(unreachable.url(), "");

    assertThat(r.get("class")).as(r.raw()).isEqualTo("java.net.http.HttpConnectTimeoutException");
    assertThat(r.number("elapsedMs")).isBetween(400L, 3_000L);
  }

  @Test
  void keepsTheClientsOwnConnectTimeout() {
    Reply r = call(unreachable.url(), "&connectTimeout=1500");

    assertThat(r.get("class")).as(r.raw()).isEqualTo("java.net.http.HttpConnectTimeoutException");
    assertThat(r.number("elapsedMs")).isBetween(1_400L, 5_000L);
  }

  @Test
  void leavesTheAnswersOfAnUnprotectedHostAsTheyAre() {
    for (String api : List.of("send", "async")) {
      for (String handler : HANDLERS) {
        Reply r = call(unprotected, "&api=" + api + "&body=" + handler);
        assertThat(r.get("status")).as(r.raw()).isEqualTo("200");
        assertThat(r.get("body")).isEqualTo("ok");
        assertThat(r.get("contentType")).isEqualTo("text/plain; charset=utf-8");
      }
    }
    unprotected.fail();
    Reply failing = call(unprotected, "&repeat=20");
    assertThat(failing.number("leveeExceptions")).as(failing.raw()).isZero();
    assertThat(failing.get("status")).isEqualTo("500");
    assertThat(unprotected.received()).isEqualTo(28);
  }

  private Reply call(LocalHttpServer server, String extra) {
    return call(server.url("/x"), extra);
  }

  private Reply call(String url, String extra) {
    return Reply.parse(client.get("/jdkhttp?url=" + AppClient.encode(url) + extra).body());
  }

  /**
   * A port that listens but never accepts, its backlog filled: the kernel drops further connection
   * attempts, so a connect hangs until the client gives up.
   */
  private static final class FullBacklog implements AutoCloseable {
    private final ServerSocket socket;
    private final List<Socket> queued = new ArrayList<>();

    FullBacklog() {
      try {
        socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        for (int i = 0; i < 4; i++) {
          Socket s = new Socket();
          try {
            s.connect(socket.getLocalSocketAddress(), 200);
            queued.add(s);
          } catch (IOException full) {
            s.close();
            break;
          }
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    int port() {
      return socket.getLocalPort();
    }

    String url() {
      return "http://127.0.0.1:" + port() + "/x";
    }

    @Override
    public void close() {
      try {
        for (Socket s : queued) {
          s.close();
        }
        socket.close();
      } catch (IOException e) {
        // the test is over
      }
    }
  }
}
