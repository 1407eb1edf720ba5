package io.levee.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the agent promises for outbound calls through an Apache HttpClient (SPEC §5.1), one client
 * per subclass, in a forked application on JDK 17 with the packaged agent: the breaker opens and
 * the server stops being contacted, a blocked call fails with the {@code levee:} exception the
 * caller already handles or answers with a fallback of the client's own type through every API
 * form, a rate limit and a concurrency limit hold their counts exactly under parallel callers, the
 * rule's read timeout applies only where the request sets none, an unprotected host's answers pass
 * as they are, and no connection is left leased in the client's pool after any of it. Each test has
 * its own local server, and the rules name each server's port, so the resources stay apart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ApacheContract {
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
        - name: counted
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          rate-limit: { rate: 4/h, burst: 4 }
        - name: once
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          rate-limit: { rate: 3/h, burst: 3 }
        - name: narrow
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          concurrency: { max: 2 }
      """;

  private final LocalHttpServer flaky = LocalHttpServer.start();
  private final LocalHttpServer degraded = LocalHttpServer.start();
  private final LocalHttpServer stalled = LocalHttpServer.start().stall();
  private final LocalHttpServer counted = LocalHttpServer.start();
  private final LocalHttpServer once = LocalHttpServer.start();
  private final LocalHttpServer narrow = LocalHttpServer.start().slow(1500);
  private final LocalHttpServer open = LocalHttpServer.start();
  private ForkedApp app;
  private AppClient client;

  /** {@code hc4}, {@code hc5} or {@code rest}: the client of {@code ApacheCalls}. */
  protected abstract String client();

  /** The API forms of the client: {@code plain}, {@code handler}, {@code open}. */
  protected abstract List<String> forms();

  /** The class of what the caller catches for a blocked call. */
  protected abstract String blockedException();

  /** The class of the response the application gets, as {@code ApacheCalls} names it. */
  protected abstract String responseType();

  private String name() {
    return "apache-" + client() + "-jdk17";
  }

  @BeforeAll
  void start() {
    String rules =
        RULES.formatted(
            flaky.port(),
            degraded.port(),
            stalled.port(),
            counted.port(),
            once.port(),
            narrow.port());
    app =
        ForkedApp.of(TomcatApp.class)
            .jdk(Jdk.require(17))
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
    Stream.of(flaky, degraded, stalled, counted, once, narrow, open)
        .forEach(LocalHttpServer::close);
  }

  @Test
  void opensOnFailuresFailsFastInEveryFormWhileOpenAndRecovers() throws Exception {
    flaky.fail();
    for (int i = 0; i < 5; i++) {
      Reply failed = call(flaky, "");
      assertThat(failed.get("status")).as(failed.raw()).isEqualTo("500");
      assertThat(failed.get("leased")).isEqualTo("0");
    }
    int receivedWhenOpened = flaky.received();

    for (String form : forms()) {
      Reply blocked = call(flaky, "&form=" + form);
      assertBlocked(blocked);
      assertThat(blocked.get("leased")).isEqualTo("0");
    }
    Reply many = call(flaky, "&repeat=100");
    assertThat(many.number("leveeExceptions")).as(many.raw()).isEqualTo(100);
    assertThat(many.get("leased")).isEqualTo("0");
    System.out.printf(
        "%s: median blocked call, measured in the application: %.1f us%n",
        name(), many.number("medianNanos") / 1000.0);
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
  void answersWithAFallbackOfTheClientsOwnTypeWithoutContactingTheServer() {
    degraded.refuse();
    for (int i = 0; i < 5; i++) {
      Reply refused = call(degraded, "");
      assertThat(refused.get("outcome")).as(refused.raw()).isEqualTo("exception");
      assertThat(refused.get("leased")).isEqualTo("0");
    }
    degraded.ok();
    for (String form : forms()) {
      for (int i = 0; i < 3; i++) {
        Reply r = call(degraded, "&form=" + form);
        assertThat(r.get("status")).as(r.raw()).isEqualTo("503");
        assertThat(r.get("body")).isEqualTo("{\"status\":\"degraded\"}");
        assertThat(r.get("contentType")).isEqualTo("application/json");
        assertThat(r.get("type")).isEqualTo(responseType());
        assertThat(r.get("leased")).isEqualTo("0");
      }
    }
    assertThat(degraded.received()).isZero();
  }

  @Test
  void holdsARateLimitExactlyUnderParallelCallers() {
    Reply r = call(counted, "&parallel=8");
    assertThat(r.number("ok")).as(r.raw()).isEqualTo(4);
    assertThat(r.number("leveeExceptions")).isEqualTo(4);
    assertThat(r.get("leased")).isEqualTo("0");
    assertThat(counted.received()).isEqualTo(4);
  }

  /** Sequential calls against a burst of 3: a client counted twice would get only one through. */
  @Test
  void decidesOncePerCall() {
    Reply r = call(once, "&repeat=5");
    assertThat(r.number("ok")).as(r.raw()).isEqualTo(3);
    assertThat(r.number("leveeExceptions")).isEqualTo(2);
    assertThat(once.received()).isEqualTo(3);
  }

  @Test
  void holdsAConcurrencyLimitExactlyUnderParallelCallers() {
    Reply r = call(narrow, "&parallel=5");
    assertThat(r.number("ok")).as(r.raw()).isEqualTo(2);
    assertThat(r.number("leveeExceptions")).isEqualTo(3);
    assertThat(r.get("leased")).isEqualTo("0");
    assertThat(narrow.received()).isEqualTo(2);
  }

  @Test
  void appliesTheReadTimeoutWhereTheRequestSetsNone() {
    Reply r = call(stalled, "");
    assertThat(timeout(r)).as(r.raw()).isEqualTo("java.net.SocketTimeoutException");
    assertThat(r.number("elapsedMs")).isBetween(400L, 3_000L);
    assertThat(r.get("leased")).isEqualTo("0");
  }

  @Test
  void keepsTheRequestsOwnReadTimeout() {
    Reply r = call(stalled, "&readTimeout=1500");
    assertThat(timeout(r)).as(r.raw()).isEqualTo("java.net.SocketTimeoutException");
    assertThat(r.number("elapsedMs")).isBetween(1_400L, 5_000L);
    assertThat(r.get("leased")).isEqualTo("0");
  }

  @Test
  void passesAnUnprotectedHostsAnswersAsTheyAre() {
    for (String form : forms()) {
      Reply r = call(open, "&form=" + form);
      assertThat(r.get("status")).as(r.raw()).isEqualTo("200");
      assertThat(r.get("body")).isEqualTo("ok");
      assertThat(r.get("contentType").replace(" ", "")).isEqualTo("text/plain;charset=utf-8");
      assertThat(r.get("type")).isEqualTo(responseType());
      assertThat(r.get("leased")).isEqualTo("0");
    }
    assertThat(open.received()).isEqualTo(forms().size());
  }

  private void assertBlocked(Reply r) {
    assertThat(r.get("class")).as(r.raw()).isEqualTo(blockedException());
    String message = r.get("class").equals("java.io.IOException") ? "message" : "causeMessage";
    assertThat(r.get(message)).as(r.raw()).startsWith("levee:").contains("flaky");
  }

  /** The timeout the client reports, itself or as the cause of RestTemplate's exception. */
  private static String timeout(Reply r) {
    return r.get("cause").isEmpty() ? r.get("class") : r.get("cause");
  }

  private Reply call(LocalHttpServer server, String extra) {
    String url = AppClient.encode(server.url("/x"));
    return Reply.parse(client.get("/apache?client=" + client() + "&url=" + url + extra).body());
  }
}
