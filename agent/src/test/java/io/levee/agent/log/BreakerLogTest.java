package io.levee.agent.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.testing.EngineFixture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BreakerLogTest {
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
    f.engine.setListener(new BreakerLog(f.log));

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
  void inMonitorModeAnOpeningIsInformationAndSaysNothingWasRefused() {
    EngineFixture f =
        new EngineFixture()
            .apply(
                "resources:\n"
                    + "  - name: search\n"
                    + "    mode: monitor\n"
                    + "    match: { http: { urls: [\"http://search.example/**\"] } }\n"
                    + "    circuit-breaker: { minimum-calls: 2, open-for: 5s }\n");
    f.engine.setListener(new BreakerLog(f.log));

    f.complete(f.engine.http("GET", "http://search.example/a"), 500, 1);
    f.complete(f.engine.http("GET", "http://search.example/a"), 500, 1);

    assertThat(f.log.lines)
        .containsExactly(
            "INFO circuit breaker search (monitor, nothing refused): closed -> open"
                + " (failure rate 100% over 2 calls >= 50%)");
  }
}
