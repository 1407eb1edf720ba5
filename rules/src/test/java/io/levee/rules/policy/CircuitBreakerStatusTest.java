package io.levee.rules.policy;

import static io.levee.rules.policy.CircuitBreaker.HALF_OPEN;
import static io.levee.rules.policy.CircuitBreaker.OPEN;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.CircuitBreakerSpec;
import org.junit.jupiter.api.Test;

/** What status readers learn beyond the state: the ramp's share and a probe that is due. */
class CircuitBreakerStatusTest extends BreakerTestSupport {
  @Test
  void aBreakerThatNeverOpenedNeitherRampsNorWaitsForAProbe() {
    CircuitBreaker b = breaker(LOWEST);
    assertThat(b.rampPercent()).isZero();
    assertThat(b.probeDue()).isFalse();
  }

  @Test
  void rampPercentFollowsTheStepsAfterClosingThenDropsToZero() {
    CircuitBreaker b = halfOpen(LOWEST);
    closeThroughProbes(b);
    assertThat(b.rampPercent()).isEqualTo(10);
    clock.advanceMillis(999);
    assertThat(b.rampPercent()).isEqualTo(10);
    clock.advanceMillis(1);
    assertThat(b.rampPercent()).isEqualTo(25);
    clock.advanceMillis(1_000);
    assertThat(b.rampPercent()).isEqualTo(50);
    clock.advanceMillis(1_000);
    assertThat(b.rampPercent()).isZero();
    assertThat(b.ramping()).isFalse();
  }

  @Test
  void rampPercentIsTheShareOfCallsTheStepAdmits() {
    CircuitBreaker b = halfOpen(LOWEST);
    closeThroughProbes(b);
    clock.advanceMillis(1_000);
    int admitted = 0;
    for (int i = 0; i < 4; i++) {
      admitted += b.tryAcquire() == 0 ? 1 : 0;
    }
    assertThat(b.rampPercent()).isEqualTo(25);
    assertThat(admitted).isEqualTo(1);
  }

  @Test
  void aProbeIsDueOnceTheOpenTimeIsUpUntilACallTakesIt() {
    CircuitBreaker b = breaker(LOWEST);
    complete(b, 0, 4);
    assertThat(b.state()).isEqualTo(OPEN);
    assertThat(b.probeDue()).isFalse();
    clock.advanceNanos(OPEN_FOR - 1);
    assertThat(b.probeDue()).isFalse();
    clock.advanceNanos(1);
    assertThat(b.state()).isEqualTo(OPEN);
    assertThat(b.probeDue()).isTrue();
    clock.advanceMillis(60_000);
    assertThat(b.probeDue()).as("however long no call comes").isTrue();

    assertThat(b.tryAcquire()).isZero();

    assertThat(b.state()).isEqualTo(HALF_OPEN);
    assertThat(b.probeDue()).isFalse();
    assertThat(b.rampPercent()).isZero();
  }

  @Test
  void theReasonForClosingGivesTheRampStepOfTheWindow() {
    CircuitBreakerSpec fiveSeconds =
        new CircuitBreakerSpec(0.5, 0, 1.0, 5 * SECOND, 4, OPEN_FOR, 60 * SECOND, 1);
    CircuitBreaker b = new CircuitBreaker(fiveSeconds, clock, LOWEST);
    b.setListener((from, to, why) -> transitions.add(why));
    complete(b, 0, 4);
    clock.advanceNanos(OPEN_FOR);
    assertThat(b.tryAcquire()).isZero();
    complete(b, 1, 0);

    assertThat(transitions)
        .last()
        .isEqualTo(
            "probes succeeded; ramping calls back up: 10 %, 25 %, then 50 % of calls for 500ms"
                + " each, then all");
    assertThat(b.rampPercent()).isEqualTo(10);
    clock.advanceMillis(500);
    assertThat(b.rampPercent()).isEqualTo(25);
  }
}
