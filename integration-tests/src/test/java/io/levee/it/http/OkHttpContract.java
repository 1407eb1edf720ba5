package io.levee.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ClientLines;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import io.levee.it.support.TestPaths;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * What the agent promises for OkHttp calls (SPEC §5.1), per line of OkHttp: one decision per {@code
 * Call.execute} or {@code Call.enqueue}; a blocked call fails with a {@code levee:} IOException, on
 * the caller's thread for {@code execute} and in {@code Callback.onFailure} on OkHttp's dispatcher
 * thread for {@code enqueue}; a fallback is an OkHttp {@code Response} with a readable body; the
 * call timeout is set where the application set none; no pooled connection is left in use. Each
 * test has its own local server, and the rules name each server's port.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public abstract class OkHttpContract {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: flaky
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 5, window: 10s, open-for: 60s }
        - name: queued
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 5, window: 10s, open-for: 60s }
        - name: degraded
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 5, window: 10s, open-for: 60s }
          on-block:
            fallback: { status: 503, body: '{"status":"degraded"}', headers: { Content-Type: application/json } }
        - name: limited
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          rate-limit: { rate: 10/h, burst: 10 }
        - name: narrow
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          concurrency: { max: 3 }
        - name: stalled
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          timeouts: { read: 500ms }
        - name: templated
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 5, window: 10s, open-for: 60s }
        - name: templated-degraded
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 5, window: 10s, open-for: 60s }
          on-block:
            fallback: { status: 503, body: '{"status":"degraded"}', headers: { Content-Type: application/json } }
      """;

  private final LocalHttpServer flaky = LocalHttpServer.start();
  private final LocalHttpServer queued = LocalHttpServer.start();
  private final LocalHttpServer degraded = LocalHttpServer.start();
  private final LocalHttpServer limited = LocalHttpServer.start();
  private final LocalHttpServer narrow = LocalHttpServer.start().slow(1_500);
  private final LocalHttpServer stalled = LocalHttpServer.start().stall();
  protected final LocalHttpServer templated = LocalHttpServer.start();
  protected final LocalHttpServer templatedDegraded = LocalHttpServer.start();
  private final LocalHttpServer unprotected = LocalHttpServer.start();
  private final int statusPort = freePort();
  private ForkedApp app;
  private AppClient client;

  /** The client line ({@code client-lines/<line>}), or null for the tests' own OkHttp 4.12. */
  protected abstract String line();

  /** The jar the application must load OkHttp from, e.g. {@code okhttp-3.14.9.jar}. */
  protected abstract String okhttpJar();

  private String name() {
    return (line() == null ? "okhttp4" : line()) + "-jdk17";
  }

  @BeforeAll
  void start() {
    String rules =
        RULES.formatted(
            flaky.port(),
            queued.port(),
            degraded.port(),
            limited.port(),
            narrow.port(),
            stalled.port(),
            templated.port(),
            templatedDegraded.port());
    String rulesFile = RulesFile.write(name(), rules).toAbsolutePath().toString();
    app =
        ForkedApp.of(TomcatApp.class)
            .jdk(Jdk.require(17))
            .classPath(
                line() == null
                    ? TestPaths.applicationClassPath()
                    : ClientLines.applicationClassPath(line()))
            .agent("rules=" + rulesFile + ",http=127.0.0.1:" + statusPort)
            .name(name())
            .start();
    client = new AppClient(app);
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
    Stream.of(
            flaky,
            queued,
            degraded,
            limited,
            narrow,
            stalled,
            templated,
            templatedDegraded,
            unprotected)
        .forEach(LocalHttpServer::close);
  }

  @Test
  @Order(1)
  void leavesAnUnprotectedHostsAnswersAsTheyAre() {
    Reply ok = call(unprotected, "");
    assertThat(ok.get("okhttpJar")).as("the line under test").isEqualTo(okhttpJar());
    assertThat(ok.get("status")).as(ok.raw()).isEqualTo("200");
    assertThat(ok.get("body")).isEqualTo("ok");
    assertThat(ok.get("contentType")).isEqualTo("text/plain; charset=utf-8");
    unprotected.fail();
    Reply failed = call(unprotected, "&via=enqueue");
    assertThat(failed.get("status")).as(failed.raw()).isEqualTo("500");
    assertThat(failed.get("body")).isEqualTo("failing on purpose");
    assertThat(failed.get("thread")).startsWith("OkHttp");
    assertThat(unprotected.received()).isEqualTo(2);
  }

  @Test
  void executeOpensTheBreakerOnServerErrorsAndThenFailsFastWithoutContactingTheServer() {
    flaky.fail();
    for (int i = 0; i < 5; i++) {
      assertThat(call(flaky, "").get("status")).isEqualTo("500");
    }
    int receivedWhenOpened = flaky.received();

    Reply blocked = call(flaky, "");
    assertThat(blocked.get("class")).as(blocked.raw()).isEqualTo("java.io.IOException");
    assertThat(blocked.get("message")).startsWith("levee:").contains("flaky");
    assertThat(blocked.get("thread")).doesNotStartWith("OkHttp");
    Reply many = call(flaky, "&repeat=50");
    assertThat(many.number("leveeExceptions")).as(many.raw()).isEqualTo(50);
    assertThat(many.number("inUse")).isZero();
    assertThat(flaky.received()).isEqualTo(receivedWhenOpened);
  }

  @Test
  void enqueueOpensTheBreakerAndFailsInOnFailureOnOkHttpsDispatcherThread() {
    queued.fail();
    for (int i = 0; i < 5; i++) {
      Reply r = call(queued, "&via=enqueue");
      assertThat(r.get("status")).as(r.raw()).isEqualTo("500");
    }
    int receivedWhenOpened = queued.received();

    Reply blocked = call(queued, "&via=enqueue");
    assertThat(blocked.get("class")).as(blocked.raw()).isEqualTo("java.io.IOException");
    assertThat(blocked.get("message")).startsWith("levee:").contains("queued");
    assertThat(blocked.get("thread")).startsWith("OkHttp");
    Reply many = call(queued, "&via=enqueue&repeat=20");
    assertThat(many.number("leveeOnOkHttpThreads")).as(many.raw()).isEqualTo(20);
    assertThat(many.number("inUse")).isZero();
    assertThat(queued.received()).isEqualTo(receivedWhenOpened);
  }

  @Test
  void answersWithTheFallbackResponseWithoutContactingTheServer() {
    degraded.refuse();
    for (int i = 0; i < 5; i++) {
      Reply r = call(degraded, "");
      assertThat(r.get("class")).as(r.raw()).isEqualTo("java.net.ConnectException");
    }
    degraded.ok();
    for (String via : new String[] {"execute", "enqueue"}) {
      Reply r = call(degraded, "&via=" + via);
      assertThat(r.get("status")).as(r.raw()).isEqualTo("503");
      assertThat(r.get("body")).isEqualTo("{\"status\":\"degraded\"}");
      assertThat(r.get("contentType")).isEqualTo("application/json");
      assertThat(r.number("inUse")).isZero();
    }
    Reply many = call(degraded, "&via=enqueue&repeat=20");
    assertThat(many.number("status503")).as(many.raw()).isEqualTo(20);
    assertThat(degraded.received()).isZero();
  }

  @Test
  void rateLimitAdmitsExactlyItsBurstUnderParallelCallers() {
    Reply r = call(limited, "&parallel=30");
    assertThat(r.number("status200")).as(r.raw()).isEqualTo(10);
    assertThat(r.number("leveeExceptions")).isEqualTo(20);
    assertThat(r.number("inUse")).isZero();
    assertThat(limited.received()).isEqualTo(10);
  }

  @Test
  void concurrencyLimitAdmitsExactlyItsMaximumUnderParallelCallers() {
    Reply executed = call(narrow, "&parallel=12");
    assertThat(executed.number("status200")).as(executed.raw()).isEqualTo(3);
    assertThat(executed.number("leveeExceptions")).isEqualTo(9);
    assertThat(executed.number("inUse")).isZero();

    Reply enqueued = call(narrow, "&via=enqueue&parallel=12");
    assertThat(enqueued.number("status200")).as(enqueued.raw()).isEqualTo(3);
    assertThat(enqueued.number("leveeOnOkHttpThreads")).isEqualTo(9);
    assertThat(enqueued.number("inUse")).isZero();
    assertThat(narrow.received()).isEqualTo(6);
  }

  @Test
  void setsTheCallTimeoutWhereTheApplicationSetNone() {
    Reply r = call(stalled, "");
    assertThat(r.get("class")).as(r.raw()).isEqualTo("java.io.InterruptedIOException");
    assertThat(r.get("message")).isEqualTo("timeout");
    assertThat(r.number("elapsedMs")).isBetween(400L, 3_000L);
    assertThat(r.number("inUse")).isZero();

    Reply queued = call(stalled, "&via=enqueue");
    assertThat(queued.get("class")).as(queued.raw()).isEqualTo("java.io.InterruptedIOException");
    assertThat(queued.number("elapsedMs")).isBetween(400L, 3_000L);
  }

  @Test
  void keepsTheApplicationsOwnCallTimeout() {
    Reply r = call(stalled, "&callTimeout=1500");
    assertThat(r.get("class")).as(r.raw()).isEqualTo("java.io.InterruptedIOException");
    assertThat(r.number("elapsedMs")).isBetween(1_400L, 5_000L);
  }

  /** Last: every call admitted in the tests before reported its outcome exactly once. */
  @Test
  @Order(Integer.MAX_VALUE)
  void everyAdmittedCallReportedItsOutcomeOnce() {
    String json = status();
    Matcher m = ROW.matcher(json);
    int rows = 0;
    while (m.find()) {
      rows++;
      long completed = 0;
      for (int g = 4; g <= 7; g++) {
        completed += Long.parseLong(m.group(g));
      }
      assertThat(m.group(2)).as("in flight of " + m.group(1)).isEqualTo("0");
      assertThat(completed).as("completed of " + m.group(1)).isEqualTo(Long.parseLong(m.group(3)));
    }
    assertThat(rows).as(json).isGreaterThanOrEqualTo(8);
  }

  private static final Pattern ROW =
      Pattern.compile(
          "\\{\"name\":\"([^\"]+)\".*?\"inFlight\":(\\d+),\"passed\":(\\d+)"
              + ".*?\"calls\":\\{\"success\":(\\d+),\"failure\":(\\d+),\"slow\":(\\d+),"
              + "\"ignored\":(\\d+)\\}");

  /** {@code passed} and the sum of {@code blocked} of one resource in {@code /status}. */
  protected long[] decisions(String resource) {
    String json = status();
    Matcher m =
        Pattern.compile(
                "\\{\"name\":\""
                    + Pattern.quote(resource)
                    + "\".*?\"passed\":(\\d+),\"blocked\":\\{([^}]*)\\}")
            .matcher(json);
    assertThat(m.find()).as(json).isTrue();
    long blocked = 0;
    for (String count : m.group(2).split(",")) {
      blocked += count.isEmpty() ? 0 : Long.parseLong(count.substring(count.indexOf(':') + 1));
    }
    return new long[] {Long.parseLong(m.group(1)), blocked};
  }

  private String status() {
    try {
      return HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + statusPort + "/status"))
                  .build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  protected Reply call(LocalHttpServer server, String extra) {
    String url = AppClient.encode(server.url("/x"));
    return Reply.parse(client.get("/okhttp?url=" + url + extra).body());
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
