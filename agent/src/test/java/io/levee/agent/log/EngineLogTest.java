package io.levee.agent.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.testing.EngineFixture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EngineLogTest {
  @Test
  void logsEachTransitionOfARealBreakerWithResourceStatesAndWhy() {
    EngineFixture f =
        new EngineFixture()
            .apply(
                "resources:\n"
                    + "  - name: payments\n"
                    + "    match: { http: { urls: [\"http://pay.example/**\"] } }\n"
                    + "    circuit-breaker: { minimum-calls: 2, open-for: 5s, half-open-calls: 1"
                    + " }\n");
    f.engine.setListener(new EngineLog(f.log));

    f.complete(f.engine.http("GET", "http://pay.example/a"), 500, 1);
    f.complete(f.engine.http("GET", "http://pay.example/a"), 500, 1);
    f.clock.advance(6, TimeUnit.SECONDS);
    f.complete(f.engine.http("GET", "http://pay.example/a"), 200, 1);

    assertThat(f.log.lines)
        .containsExactly(
            "WARN circuit breaker payments: closed -> open (failure rate 100% over 2 calls >= 50%)",
            "INFO circuit breaker payments: open -> half-open (open time elapsed)",
            "INFO circuit breaker payments: half-open -> closed (probes succeeded; ramping calls"
                + " back up: 10 %, 25 %, then 50 % of calls for 1s each, then all)");
  }

  @Test
  void atDebugEachWindowOfTheSystemLimitSaysHowItMovedAndWhy() {
    EngineFixture f = new EngineFixture().apply("system: { adaptive: { initial-limit: 20 } }\n");
    f.engine.setListener(new EngineLog(f.log));

    runWindow(f);
    assertThat(f.log.lines).isEmpty();

    f.log.debugging = true;
    runWindow(f);
    assertThat(f.log.lines).hasSize(1);
    assertThat(f.log.lines.get(0))
        .isEqualTo(
            "DEBUG limit system: 19 -> 18, toward the recent need: limit not used, peak 2.0"
                + " (median 10.0 ms = 1.00 x baseline 10.0 ms, p90 10.0 ms; 2 in flight at most;"
                + " 40 calls, 0 failed, 0 refused in 200 ms; cpu 25 %, target 80 %)");
  }

  /** Forty 10 ms calls, two at a time: one window's worth at the smallest window. */
  private static void runWindow(EngineFixture f) {
    for (int i = 0; i < 20; i++) {
      Object a = f.get("/orders");
      Object b = f.get("/orders");
      f.clock.advance(10, TimeUnit.MILLISECONDS);
      f.complete(a, 200, 10);
      f.complete(b, 200, 10);
    }
  }

  @Test
  void inMonitorModeAnOpeningIsInformationAndSaysNothingWasRefused() {
    EngineFixture f =
        new EngineFixture()
            .apply(
                "resources:\n"
                    + "  - name: search\n"
                    + "    mode: monitor\n"
                    + "    match: { http: { urls: [\"http://search.example/**\"] } }\n"
                    + "    circuit-breaker: { minimum-calls: 2, open-for: 5s }\n");
    f.engine.setListener(new EngineLog(f.log));

    f.complete(f.engine.http("GET", "http://search.example/a"), 500, 1);
    f.complete(f.engine.http("GET", "http://search.example/a"), 500, 1);

    assertThat(f.log.lines)
        .containsExactly(
            "INFO circuit breaker search (monitor, nothing refused): closed -> open"
                + " (failure rate 100% over 2 calls >= 50%)");
  }
}
