package io.levee.agent.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.testing.EngineFixture;
import io.levee.agent.testing.MetricsScenario;
import io.levee.rules.load.LoadResult;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ObservabilityTest {
  private final EngineFixture f =
      new EngineFixture()
          .apply("resources:\n" + MetricsScenario.CHECKOUT + MetricsScenario.PAYMENTS);
  private Observability o;

  @AfterEach
  void close() {
    if (o != null) {
      o.close();
    }
  }

  private String scrape() throws Exception {
    int port = o.endpoint().address().socket().getPort();
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  void servesMetricsThatFollowReloadsAndCountsThem() throws Exception {
    o = Observability.startNow(f.engine, f.cpu, ":0", f.log);
    assertThat(scrape()).contains("resource=\"payments\"");

    f.apply("resources:\n" + MetricsScenario.CHECKOUT);
    o.rulesApplied(f.engine.rules());
    LoadResult bad = EngineFixture.parse("resources:\n  - name: x\n    rate-limt: {}\n");
    o.rulesRejected("rules.yaml", bad.errors());
    String text = scrape();

    assertThat(text).doesNotContain("payments");
    assertThat(text.lines())
        .contains(
            "levee_rules_reloads_total{result=\"applied\"} 1",
            "levee_rules_reloads_total{result=\"rejected\"} 1");
  }

  @Test
  void logsAppliedReloadsAndLeavesRejectedOnesToTheWatcher() {
    o = Observability.startNow(f.engine, f.cpu, null, f.log);
    f.apply("resources:\n" + MetricsScenario.CHECKOUT);
    o.rulesApplied(f.engine.rules());
    LoadResult bad = EngineFixture.parse("resources:\n  - name: x\n    rate-limt: {}\n");
    o.rulesRejected("rules.yaml", bad.errors());
    o.close();
    o = null;

    assertThat(f.log.lines)
        .containsExactly("INFO rules reloaded from rules.yaml: 1 resource (checkout)");
  }

  @Test
  void logsBreakerTransitionsFromItsOwnThread() throws Exception {
    o = Observability.start(f.engine, f.cpu, null, f.log);
    for (int i = 0; i < 4; i++) {
      f.complete(f.engine.http("POST", "http://pay.example/v1"), 500, 1);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (f.log.lines.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(f.log.lines)
        .containsExactly(
            "WARN circuit breaker payments: closed -> open (failure rate 100% over 4 calls >="
                + " 50%)");
  }

  @Test
  void startsNoEndpointAndNoMetersUnlessAsked() {
    o = Observability.startNow(f.engine, f.cpu, null, f.log);
    assertThat(o.endpoint()).isNull();
    assertThat(o.registry()).isNull();
  }

  @Test
  void keepsTheEndpointOffForABadAddressAndSaysWhy() {
    o = Observability.startNow(f.engine, f.cpu, "localhost:http", f.log);
    assertThat(o.endpoint()).isNull();
    assertThat(f.log.lines)
        .anyMatch(l -> l.startsWith("ERROR http=localhost:http: the port must be"));
  }

  @Test
  void closeFreesThePortAndStopsItsThreads() throws Exception {
    o = Observability.start(f.engine, f.cpu, ":0", f.log);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (o.endpoint() == null && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    int port = o.endpoint().address().socket().getPort();

    o.close();
    o = null;

    try (ServerSocket again = new ServerSocket()) {
      again.setReuseAddress(true);
      again.bind(new InetSocketAddress("127.0.0.1", port));
    }
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().equals("levee-log") || t.getName().equals("levee-http"));
  }
}
