package io.levee.agent.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.testing.EngineFixture;
import io.levee.agent.testing.MetricsScenario;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {
  private static final Pattern SAMPLE =
      Pattern.compile(
          "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\]|\\\\.)*\""
              + "(?:,[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\]|\\\\.)*\")*\\})? (\\S+)");

  @Test
  void writesEverySampleAfterTheTypeOfItsFamilyAndEachFamilyOnce() {
    EngineFixture f = new EngineFixture();
    f.apply(
        "resources:\n"
            + MetricsScenario.CHECKOUT
            + MetricsScenario.PAYMENTS
            + MetricsScenario.SEARCH);
    LeveeMeters meters =
        new LeveeMeters(
            LeveeMeters.newRegistry(), f.engine, f.cpu, new AtomicLong(), new AtomicLong());
    MetricsScenario.run(f);

    List<String> lines = PrometheusText.write(meters.registry()).lines().toList();

    Set<String> typed = new HashSet<>();
    String current = null;
    for (String line : lines) {
      if (line.startsWith("# TYPE ")) {
        current = line.split(" ")[2];
        assertThat(typed.add(current)).as("one TYPE line for %s", current).isTrue();
        continue;
      }
      if (line.startsWith("# HELP ")) {
        continue;
      }
      Matcher m = SAMPLE.matcher(line);
      assertThat(m.matches()).as(line).isTrue();
      assertThat(m.group(1)).as(line).startsWith(current);
      Double.parseDouble(m.group(3));
    }
    assertThat(typed)
        .contains(
            "levee_calls_total",
            "levee_blocked_total",
            "levee_call_duration_seconds",
            "levee_inflight",
            "levee_limit",
            "levee_breaker_state",
            "levee_cpu",
            "levee_rules_reloads_total");
  }

  @Test
  void namesCountersTimersAndGaugesTheWayPrometheusDoes() {
    MeterRegistry registry = LeveeMeters.newRegistry();
    Counter.builder("app.requests").tag("path", "/a").register(registry).increment(2);
    Timer.builder("app.latency").register(registry).record(Duration.ofMillis(1500));
    registry.gauge("app.queue.size", new AtomicLong(7));

    assertThat(PrometheusText.write(registry).lines())
        .containsSubsequence(
            "# TYPE app_latency_seconds summary",
            "app_latency_seconds_count 1",
            "app_latency_seconds_sum 1.5")
        .contains(
            "# TYPE app_requests_total counter",
            "app_requests_total{path=\"/a\"} 2",
            "# TYPE app_queue_size gauge",
            "app_queue_size 7");
  }

  @Test
  void escapesLabelValuesAndWritesSpecialNumbers() {
    assertThat(PrometheusText.escapeValue("a\"b\\c\nd")).isEqualTo("a\\\"b\\\\c\\nd");
    assertThat(PrometheusText.number(Double.NaN)).isEqualTo("NaN");
    assertThat(PrometheusText.number(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
    assertThat(PrometheusText.number(3.0)).isEqualTo("3");
    assertThat(PrometheusText.number(0.25)).isEqualTo("0.25");
    assertThat(PrometheusText.sanitize("9levee.call-duration")).isEqualTo("_levee_call_duration");
  }
}
