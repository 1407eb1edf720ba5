package io.levee.agent.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.testing.EngineFixture;
import io.levee.agent.testing.MetricsScenario;
import io.levee.bootstrap.Blocked;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LeveeMetersTest {
  private final EngineFixture f = new EngineFixture();
  private final AtomicLong applied = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();

  @Test
  void reportsExactlyTheCallsOfAScriptedScenario() {
    f.apply(
        "resources:\n"
            + MetricsScenario.CHECKOUT
            + MetricsScenario.PAYMENTS
            + MetricsScenario.SEARCH);
    LeveeMeters meters = meters();
    MetricsScenario.run(f);

    List<String> lines = PrometheusText.write(meters.registry()).lines().toList();

    assertThat(lines)
        .contains(
            "levee_calls_total{kind=\"servlet\",outcome=\"success\",resource=\"checkout\"} 2",
            "levee_calls_total{kind=\"servlet\",outcome=\"failure\",resource=\"checkout\"} 1",
            "levee_calls_total{kind=\"servlet\",outcome=\"slow\",resource=\"checkout\"} 0",
            "levee_blocked_total{kind=\"servlet\",mode=\"enforce\",reason=\"rate-limit\",resource=\"checkout\"}"
                + " 2",
            "levee_call_duration_seconds_count{kind=\"servlet\",resource=\"checkout\"} 3",
            "levee_call_duration_seconds_sum{kind=\"servlet\",resource=\"checkout\"} 0.01",
            "levee_calls_total{kind=\"http\",outcome=\"failure\",resource=\"payments\"} 4",
            "levee_blocked_total{kind=\"http\",mode=\"enforce\",reason=\"circuit-open\",resource=\"payments\"}"
                + " 3",
            "levee_breaker_state{resource=\"payments\"} 1",
            "levee_inflight{resource=\"payments\"} 0",
            "levee_blocked_total{kind=\"jdbc\",mode=\"monitor\",reason=\"concurrency\",resource=\"search\"}"
                + " 2",
            "levee_inflight{resource=\"search\"} 3",
            "levee_limit{resource=\"search\"} 1",
            "levee_cpu 0.25",
            "levee_rules_reloads_total{result=\"applied\"} 0",
            "levee_rules_reloads_total{result=\"rejected\"} 0",
            "# TYPE levee_calls_total counter",
            "# TYPE levee_blocked_total counter",
            "# TYPE levee_call_duration_seconds summary",
            "# TYPE levee_inflight gauge");
  }

  @Test
  void registersOnlyTheSeriesAResourcesPoliciesCanMove() {
    f.apply(
        "resources:\n"
            + MetricsScenario.CHECKOUT
            + MetricsScenario.PAYMENTS
            + MetricsScenario.SEARCH);
    String text = PrometheusText.write(meters().registry());

    assertThat(text)
        .doesNotContain("reason=\"circuit-open\",resource=\"checkout\"")
        .doesNotContain("reason=\"rate-limit\",resource=\"payments\"")
        .doesNotContain("mode=\"enforce\",reason=\"concurrency\",resource=\"search\"")
        .doesNotContain("levee_breaker_state{resource=\"checkout\"}")
        .doesNotContain("levee_limit{resource=\"payments\"}")
        .doesNotContain("levee_keys_evicted");
  }

  @Test
  void addsSystemBlocksToServletResourcesAndPerKeyEvictions() {
    f.apply(
        "system:\n  mode: monitor\n  adaptive: { min-limit: 1, max-limit: 1, initial-limit: 1 }\n"
            + "resources:\n"
            + MetricsScenario.CHECKOUT.replace("burst: 3", "burst: 3, per: header:X-Tenant")
            + MetricsScenario.PAYMENTS);
    String text = PrometheusText.write(meters().registry());

    assertThat(text.lines())
        .contains(
            "levee_blocked_total{kind=\"servlet\",mode=\"monitor\",reason=\"system\",resource=\"checkout\"}"
                + " 0",
            "levee_blocked_total{kind=\"servlet\",mode=\"monitor\",reason=\"system\",resource=\"system\"}"
                + " 0",
            "levee_limit{resource=\"system\"} 1",
            "levee_keys_evicted_total{resource=\"checkout\"} 0");
    assertThat(text).doesNotContain("reason=\"system\",resource=\"payments\"");
  }

  @Test
  void aReloadRemovesTheSeriesOfRemovedResourcesAndRestartsChangedOnes() {
    f.apply(
        "resources:\n"
            + MetricsScenario.CHECKOUT
            + MetricsScenario.PAYMENTS
            + MetricsScenario.SEARCH);
    LeveeMeters meters = meters();
    MetricsScenario.run(f);

    f.apply(
        "resources:\n"
            + MetricsScenario.CHECKOUT.replace("rate: 3/s", "rate: 5/s")
            + MetricsScenario.SEARCH);
    meters.sync();
    List<String> lines = PrometheusText.write(meters.registry()).lines().toList();

    assertThat(lines).noneMatch(line -> line.contains("payments"));
    assertThat(lines)
        .contains(
            "levee_blocked_total{kind=\"servlet\",mode=\"enforce\",reason=\"rate-limit\",resource=\"checkout\"}"
                + " 0",
            "levee_calls_total{kind=\"servlet\",outcome=\"success\",resource=\"checkout\"} 0",
            "levee_blocked_total{kind=\"jdbc\",mode=\"monitor\",reason=\"concurrency\",resource=\"search\"}"
                + " 2");
    assertThat(meters.registry().getMeters())
        .filteredOn(m -> "payments".equals(m.getId().getTag("resource")))
        .isEmpty();
  }

  @Test
  void aResourceBackAfterAReloadIsReadFromItsNewCounters() {
    f.apply(
        "resources:\n"
            + MetricsScenario.CHECKOUT
            + MetricsScenario.PAYMENTS
            + MetricsScenario.SEARCH);
    LeveeMeters meters = meters();
    MetricsScenario.run(f);
    f.apply("resources:\n" + MetricsScenario.CHECKOUT + MetricsScenario.SEARCH);
    meters.sync();
    f.apply(
        "resources:\n"
            + MetricsScenario.CHECKOUT
            + MetricsScenario.PAYMENTS
            + MetricsScenario.SEARCH);
    meters.sync();
    f.complete(f.engine.http("POST", "http://pay.example/v1/charge"), 200, 1);

    assertThat(PrometheusText.write(meters.registry()).lines())
        .contains(
            "levee_calls_total{kind=\"http\",outcome=\"success\",resource=\"payments\"} 1",
            "levee_calls_total{kind=\"http\",outcome=\"failure\",resource=\"payments\"} 0",
            "levee_breaker_state{resource=\"payments\"} 0");
  }

  @Test
  void countsFallbacksByAnswerAndTheLastGoodAnswersKept() {
    f.apply(
        "resources:\n"
            + "  - name: prices\n"
            + "    match: { http: { urls: [\"http://prices.example/**\"] } }\n"
            + "    concurrency: { max: 1 }\n"
            + "    on-block: { fallback: { last-good: 1m } }\n"
            + "  - name: static\n"
            + "    match: { http: { urls: [\"http://static.example/**\"] } }\n"
            + "    concurrency: { max: 1 }\n"
            + "    on-block: { fallback: { status: 503 } }\n"
            + MetricsScenario.PAYMENTS);
    LeveeMeters meters = meters();
    Object held = f.engine.http("GET", "http://prices.example/a");
    f.engine
        .lastGood(held, "GET", "http://prices.example/a", 200, new String[0])
        .keep(new byte[2], 2);
    f.engine.http("GET", "http://prices.example/a");
    f.engine.http("GET", "http://prices.example/b");
    f.engine.http("GET", "http://prices.example/a");

    String text = PrometheusText.write(meters.registry());
    assertThat(text.lines())
        .contains(
            "levee_fallback_total{answer=\"last-good\",resource=\"prices\"} 2",
            "levee_fallback_total{answer=\"static\",resource=\"prices\"} 1",
            "levee_fallback_kept{resource=\"prices\"} 1",
            "levee_fallback_total{answer=\"static\",resource=\"static\"} 0");
    assertThat(text)
        .doesNotContain("answer=\"last-good\",resource=\"static\"")
        .doesNotContain("levee_fallback_kept{resource=\"static\"}");
    assertThat(meters.registry().find("levee.fallback").tag("resource", "payments").meters())
        .isEmpty();
    f.complete(held, 200, 1);
  }

  @Test
  void countsBackpressureWhereItIsSetAndNowhereElse() {
    f.apply(
        "system:\n  adaptive: { cpu-target: 80% }\n  backpressure: true\n"
            + "resources:\n"
            + "  - name: shop\n"
            + "    match: { servlet: { paths: [\"/shop/**\"] } }\n"
            + "    backpressure: true\n"
            + "  - name: cart\n"
            + "    match: { servlet: { paths: [\"/cart/**\"] } }\n"
            + "    concurrency: { max: 5 }\n"
            + "  - name: db\n"
            + "    match: { jdbc: { urls: [\"jdbc:h2:*\"] } }\n"
            + "    rate-limit: { rate: 1/m, burst: 1 }\n");
    LeveeMeters meters = meters();
    Object shop = f.get("/shop/a");
    Object cart = f.get("/cart/a");
    f.engine.jdbc("jdbc:h2:mem:x", "select 1");
    Blocked refused = (Blocked) f.engine.jdbc("jdbc:h2:mem:x", "select 1");
    f.engine.backpressure(shop, refused);
    f.engine.backpressure(cart, refused);

    assertThat(PrometheusText.write(meters.registry()).lines())
        .contains(
            "levee_backpressure_total{mode=\"enforce\",resource=\"shop\"} 1",
            "levee_backpressure_total{mode=\"enforce\",resource=\"system\"} 1");
    assertThat(meters.registry().find("levee.backpressure").meters()).hasSize(2);
  }

  @Test
  void countsReloadsByResult() {
    f.apply("resources:\n" + MetricsScenario.CHECKOUT);
    LeveeMeters meters = meters();
    applied.set(3);
    rejected.set(1);

    assertThat(PrometheusText.write(meters.registry()).lines())
        .contains(
            "levee_rules_reloads_total{result=\"applied\"} 3",
            "levee_rules_reloads_total{result=\"rejected\"} 1");
  }

  private LeveeMeters meters() {
    return new LeveeMeters(LeveeMeters.newRegistry(), f.engine, f.cpu, applied, rejected);
  }
}
