package io.levee.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The {@code http} contract (SPEC §5.1) for Apache HttpClient 5's async client (5.6), in an
 * application that keeps one client and waits on the futures it returns: the breaker opens and the
 * partner stops being contacted, a blocked call's future fails with {@code levee:} and its callback
 * is told, a fallback is a result of the caller's own consumer type, rate and concurrency limits
 * hold exact counts under parallel callers, the read timeout applies where the request set none, an
 * unprotected host answers as it is, and no pooled connection stays leased.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApacheAsyncHttpIT {
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
            fallback: { status: 503, body: '{"status":"degraded"}', headers: { Content-Type: application/json } }
        - name: stalled
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          timeouts: { read: 500ms }
        - name: limited
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          rate-limit: { rate: 4/h, burst: 4 }
        - name: crowded
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          concurrency: { max: 3 }
      """;

  private final LocalHttpServer flaky = LocalHttpServer.start();
  private final LocalHttpServer degraded = LocalHttpServer.start();
  private final LocalHttpServer stalled = LocalHttpServer.start().stall();
  private final LocalHttpServer limited = LocalHttpServer.start();
  private final LocalHttpServer crowded = LocalHttpServer.start().slow(1500);
  private final LocalHttpServer unprotected = LocalHttpServer.start();
  private ForkedApp app;
  private AppClient client;

  @BeforeAll
  void start() {
    String rules =
        RULES.formatted(
            flaky.port(), degraded.port(), stalled.port(), limited.port(), crowded.port());
    app =
        ForkedApp.of(TomcatApp.class)
            .jdk(Jdk.require(17))
            .rules(RulesFile.write("apache-async", rules))
            .name("apache-async-jdk17")
            .start();
    client = new AppClient(app);
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
    Stream.of(flaky, degraded, stalled, limited, crowded, unprotected)
        .forEach(LocalHttpServer::close);
  }

  @AfterEach
  void noPooledConnectionStaysLeased() throws InterruptedException {
    // The client gives the connection back just after it completes the future.
    long deadline = System.nanoTime() + 5_000_000_000L;
    long leased;
    while ((leased = leased()) != 0 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(leased).as("leased connections").isZero();
  }

  @Test
  void opensOnFailuresFailsFastWhileOpenAndRecoversWhenTheServerHeals() throws Exception {
    flaky.fail();
    for (int i = 0; i < 5; i++) {
      assertThat(call(flaky, "").get("status")).isEqualTo("500");
    }
    int receivedWhenOpened = flaky.received();

    Reply blocked = call(flaky, "");
    assertThat(blocked.get("outcome")).as(blocked.raw()).isEqualTo("exception");
    assertThat(blocked.get("class")).isEqualTo("java.io.IOException");
    assertThat(blocked.get("message")).startsWith("levee:").contains("flaky");
    assertThat(blocked.get("callback")).startsWith("failed levee:");
    assertThat(blocked.get("callbackOnCaller")).isEqualTo("true");
    Reply many = call(flaky, "&repeat=200");
    assertThat(many.number("leveeExceptions")).as(many.raw()).isEqualTo(200);
    System.out.printf(
        "apache-async: median blocked call, measured in the application: %.1f us%n",
        many.number("medianNanos") / 1000.0);
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
    assertThat(flaky.received() - receivedWhenOpened).isGreaterThanOrEqualTo(5);
  }

  @Test
  void answersWithTheFallbackInTheCallersOwnTypeWithoutContactingTheServer() {
    degraded.refuse();
    for (int i = 0; i < 5; i++) {
      // a java.net.ConnectException, as the client wraps it
      assertThat(call(degraded, "").get("class"))
          .isEqualTo("org.apache.hc.client5.http.HttpHostConnectException");
    }
    degraded.ok();
    for (int i = 0; i < 10; i++) {
      Reply r = call(degraded, "");
      assertThat(r.get("resultClass"))
          .as(r.raw())
          .isEqualTo("org.apache.hc.client5.http.async.methods.SimpleHttpResponse");
      assertThat(r.get("status")).isEqualTo("503");
      assertThat(r.get("body")).isEqualTo("{\"status\":\"degraded\"}");
      assertThat(r.get("contentType")).startsWith("application/json");
      assertThat(r.get("callback")).isEqualTo("completed 503");
    }
    Reply message = call(degraded, "&consumer=message");
    assertThat(message.get("resultClass")).as(message.raw()).endsWith("Message");
    assertThat(message.get("status")).isEqualTo("503");
    assertThat(message.get("body")).isEqualTo("{\"status\":\"degraded\"}");
    assertThat(degraded.received()).isZero();
  }

  @Test
  void injectsTheReadTimeoutWhereTheRequestSetNone() {
    Reply r = call(stalled, "");
    assertThat(r.get("class")).as(r.raw()).isEqualTo("java.net.SocketTimeoutException");
    assertThat(r.number("elapsedMs")).isBetween(400L, 3_000L);
    assertThat(r.get("callback")).startsWith("failed");
  }

  @Test
  void keepsTheRequestsOwnResponseTimeout() {
    Reply r = call(stalled, "&responseTimeout=1500");
    assertThat(r.get("class")).as(r.raw()).isEqualTo("java.net.SocketTimeoutException");
    assertThat(r.number("elapsedMs")).isBetween(1_400L, 5_000L);
  }

  @Test
  void rateLimitAdmitsExactlyItsBurstOfParallelCallers() {
    Reply r = call(limited, "&parallel=10");
    assertThat(r.number("responses")).as(r.raw()).isEqualTo(4);
    assertThat(r.number("leveeExceptions")).isEqualTo(6);
    assertThat(r.number("others")).isZero();
    assertThat(limited.received()).isEqualTo(4);
  }

  @Test
  void concurrencyLimitHoldsUntilTheFuturesComplete() {
    Reply r = call(crowded, "&parallel=10");
    assertThat(r.number("responses")).as(r.raw()).isEqualTo(3);
    assertThat(r.number("leveeExceptions")).isEqualTo(7);
    assertThat(r.number("others")).isZero();

    Reply again = call(crowded, "&parallel=3");
    assertThat(again.number("responses")).as("permits back after completion").isEqualTo(3);
    assertThat(crowded.received()).isEqualTo(6);
  }

  @Test
  void answersOfAnUnprotectedHostAreUnchanged() {
    Reply r = call(unprotected, "");
    assertThat(r.get("status")).as(r.raw()).isEqualTo("200");
    assertThat(r.get("body")).isEqualTo("ok");
    assertThat(r.get("contentType")).isEqualTo("text/plain; charset=utf-8");
    assertThat(r.get("callback")).isEqualTo("completed 200");
    assertThat(unprotected.received()).isEqualTo(1);
  }

  private Reply call(LocalHttpServer server, String extra) {
    String url = AppClient.encode(server.url("/x"));
    return Reply.parse(client.get("/apache-async?url=" + url + extra).body());
  }

  private long leased() {
    return Reply.parse(client.get("/apache-async?leased=1").body()).number("leased");
  }
}
