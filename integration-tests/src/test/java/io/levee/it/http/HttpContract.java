package io.levee.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the agent promises for outbound {@code HttpURLConnection} calls (SPEC §2, kind {@code
 * http}): breaker, fail-fast {@code levee:} exception or fallback, injected read timeout. Each test
 * has its own local server, and the rules name each server's port, so the resources stay apart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class HttpContract {
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
      """;

  private final LocalHttpServer flaky = LocalHttpServer.start();
  private final LocalHttpServer degraded = LocalHttpServer.start();
  private final LocalHttpServer stalled = LocalHttpServer.start().stall();
  private ForkedApp app;
  private AppClient client;

  /** The application's main class: the container does not matter to outbound calls. */
  protected abstract Class<?> application();

  protected abstract int jdk();

  private String name() {
    return "http-jdk" + jdk();
  }

  @BeforeAll
  void start() {
    String rules = RULES.formatted(flaky.port(), degraded.port(), stalled.port());
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
    Stream.of(flaky, degraded, stalled).forEach(LocalHttpServer::close);
  }

  @Test
  void opensOnFailuresFailsFastWhileOpenAndRecoversWhenTheServerHeals() throws Exception {
    flaky.fail();
    for (int i = 0; i < 5; i++) {
      assertThat(call(flaky, "").get("status")).isEqualTo("500");
    }
    int receivedWhenOpened = flaky.received();

    Reply blocked = call(flaky, "");
    // the application catches IOException only: an exception outcome is one
    assertThat(blocked.get("outcome")).as(blocked.raw()).isEqualTo("exception");
    assertThat(blocked.get("message")).startsWith("levee:").contains("flaky");
    Reply many = call(flaky, "&repeat=200");
    assertThat(many.number("leveeExceptions")).as(many.raw()).isEqualTo(200);
    System.out.printf(
        "%s: median blocked HttpURLConnection call, measured in the application: %.1f us%n",
        name(), many.number("medianNanos") / 1000.0);
    assertThat(many.number("medianNanos")).isLessThan(20_000_000L);
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
  void answersWithTheFallbackWithoutContactingTheServer() {
    degraded.refuse();
    for (int i = 0; i < 5; i++) {
      assertThat(call(degraded, "").get("class")).isEqualTo("java.net.ConnectException");
    }
    degraded.ok();
    for (int i = 0; i < 20; i++) {
      Reply r = call(degraded, "");
      assertThat(r.get("status")).as(r.raw()).isEqualTo("503");
      assertThat(r.get("body")).isEqualTo("{\"status\":\"degraded\"}");
      assertThat(r.get("contentType")).isEqualTo("application/json");
    }
    assertThat(degraded.received()).isZero();
  }

  @Test
  void injectsTheReadTimeoutWhereTheApplicationSetNone() {
    Reply r = call(stalled, "");
    assertThat(r.get("class")).as(r.raw()).isEqualTo("java.net.SocketTimeoutException");
    assertThat(r.number("elapsedMs")).isBetween(400L, 3_000L);
  }

  @Test
  void keepsTheApplicationsOwnReadTimeout() {
    Reply r = call(stalled, "&readTimeout=1500");
    assertThat(r.get("class")).as(r.raw()).isEqualTo("java.net.SocketTimeoutException");
    assertThat(r.number("elapsedMs")).isBetween(1_400L, 5_000L);
  }

  private Reply call(LocalHttpServer server, String extra) {
    String url = AppClient.encode(server.url("/x"));
    return Reply.parse(client.get("/http?url=" + url + extra).body());
  }
}
