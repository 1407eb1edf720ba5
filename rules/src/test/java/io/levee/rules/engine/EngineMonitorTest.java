package io.levee.rules.engine;

import static io.levee.rules.engine.Fixture.permit;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineMonitorTest {
  private final Fixture f = new Fixture();

  @Test
  void countsWhatWouldBeBlockedByReasonAndNeverBlocksOrWaits() {
    f.apply(
        "settings: { mode: monitor }\n"
            + "resources:\n  - name: a\n    match: { http: { urls: [\"http://x/**\"] } }\n"
            + "    rate-limit: { rate: 1/s, burst: 1 }\n"
            + "    concurrency: { max: 2, max-wait: 10s }\n"
            + "    adaptive: { min-limit: 1, max-limit: 1, initial-limit: 1 }\n");
    List<Object> permits = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      permits.add(permit(f.engine.http("GET", "http://x/")));
    }
    ResourceView a = f.view("a");
    assertThat(f.sleeps).isEmpty();
    assertThat(a.passed()).isEqualTo(5);
    assertThat(a.inFlight()).isEqualTo(5);
    assertThat(a.wouldBlock(Reason.ADAPTIVE)).isEqualTo(4);
    assertThat(a.wouldBlock(Reason.CONCURRENCY)).isEqualTo(3);
    assertThat(a.wouldBlock(Reason.RATE_LIMIT)).isEqualTo(4);
    for (Reason r : Reason.values()) {
      assertThat(a.blocked(r)).isZero();
    }
    for (Object p : permits) {
      f.ok(p);
    }
    assertThat(a.inFlight()).isZero();
    // Permits were taken even past the limits, and all came back: a new call is within them.
    f.clock.advanceMillis(2000);
    long before = a.wouldBlock(Reason.CONCURRENCY) + a.wouldBlock(Reason.ADAPTIVE);
    f.ok(permit(f.engine.http("GET", "http://x/")));
    assertThat(a.wouldBlock(Reason.CONCURRENCY) + a.wouldBlock(Reason.ADAPTIVE)).isEqualTo(before);
  }

  @Test
  void letsCallsThroughAnOpenBreakerAndCountsThem() {
    f.apply(
        "resources:\n  - name: a\n    mode: monitor\n    match: { http: { urls: [\"http://x/**\"] } }\n"
            + "    circuit-breaker: { minimum-calls: 2, open-for: 5s }\n");
    f.fail(permit(f.engine.http("GET", "http://x/")));
    f.fail(permit(f.engine.http("GET", "http://x/")));
    assertThat(f.view("a").breakerState()).isEqualTo(1);
    f.ok(permit(f.engine.http("GET", "http://x/")));
    assertThat(f.view("a").wouldBlock(Reason.CIRCUIT_OPEN)).isEqualTo(1);
  }

  @Test
  void monitoredSystemRuleCountsAndAdmits() {
    f.apply(
        "system:\n  mode: monitor\n  adaptive: { min-limit: 1, max-limit: 1, initial-limit: 1 }\n"
            + "resources: []\n");
    Object first = permit(f.get("/x"));
    Object second = permit(f.get("/y"));
    ResourceView system = f.view("system");
    assertThat(system.wouldBlock(Reason.SYSTEM)).isEqualTo(1);
    assertThat(system.inFlight()).isEqualTo(2);
    f.ok(first);
    f.ok(second);
    assertThat(system.inFlight()).isZero();
  }
}
