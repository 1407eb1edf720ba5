package io.levee.rules.policy;

import static io.levee.rules.policy.CircuitBreaker.CLOSED;
import static io.levee.rules.policy.CircuitBreaker.OPEN;
import static io.levee.rules.testing.TestRules.breakerSpec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** After the probes: the back-off between opens, the ramp-up after closing, the listener. */
class CircuitBreakerRecoveryTest extends BreakerTestSupport {
  @Test
  void consecutiveOpensDoubleWithJitterUpToTheCap() {
    CircuitBreaker b = halfOpen(HIGHEST);
    long[] expectedMax = {10, 20, 40, 60, 60};
    for (long max : expectedMax) {
      b.tryAcquire();
      complete(b, 0, 1);
      long open = b.openUntilNanos() - clock.nanoTime();
      assertThat(open).isBetween(max * SECOND / 2, max * SECOND);
      assertThat(open).isGreaterThan(max * SECOND - SECOND / 1000);
      clock.advanceNanos(open);
    }
  }

  @Test
  void rampsAdmittedTrafficUpAfterClosing() {
    CircuitBreaker b = halfOpen(LOWEST);
    closeThroughProbes(b);
    int[] expected = {2, 5, 10, 20};
    for (int step = 0; step < expected.length; step++) {
      int admitted = 0;
      for (int i = 0; i < 20; i++) {
        long r = b.tryAcquire();
        if (r == 0) {
          admitted++;
        } else {
          assertThat(r).isBetween(1L, SECOND);
        }
      }
      assertThat(admitted).as("step %d", step).isEqualTo(expected[step]);
      clock.advanceMillis(1_000);
    }
    assertThat(b.ramping()).isFalse();
  }

  @Test
  void aCallDecidedAtAnInstantBeforeTheBreakerClosedIsInTheRampsFirstStep() {
    CircuitBreaker b = halfOpen(LOWEST);
    closeThroughProbes(b);
    // A caller descheduled for seconds between its clock read and its decision.
    long before = clock.nanoTime() - 3 * SECOND;

    long r = b.tryAcquire(before);

    assertThat(r).isBetween(0L, SECOND);
  }

  @Test
  void aFailureDuringTheRampReopensWithTheLongerBackoff() {
    CircuitBreaker b = halfOpen(HIGHEST);
    closeThroughProbes(b);
    assertThat(b.ramping()).isTrue();
    complete(b, 2, 2);
    assertThat(b.state()).isEqualTo(OPEN);
    assertThat(transitions).last().isEqualTo("0->1 failure rate 50% over 4 calls >= 50%");
    assertThat(b.openUntilNanos() - clock.nanoTime()).isGreaterThan(OPEN_FOR);
  }

  @Test
  void theRampReopensOnlyOnceMinimumCallsHaveCompleted() {
    CircuitBreaker b = halfOpen(HIGHEST);
    closeThroughProbes(b);
    // minimum-calls 4, half-open-calls 3: three calls, two failed, decide nothing yet
    complete(b, 1, 2);
    assertThat(b.state()).isEqualTo(CLOSED);
    assertThat(b.ramping()).isTrue();
    complete(b, 0, 1);
    assertThat(b.state()).isEqualTo(OPEN);
    assertThat(transitions).last().isEqualTo("0->1 failure rate 75% over 4 calls >= 50%");
  }

  @Test
  void theRampsCallsStillCountOnceItIsOver() {
    CircuitBreaker b = halfOpen(HIGHEST);
    closeThroughProbes(b);
    complete(b, 0, 2);
    clock.advanceMillis(3_000);
    assertThat(b.ramping()).isFalse();
    complete(b, 0, 1);
    assertThat(b.state()).isEqualTo(CLOSED);
    complete(b, 0, 1);
    assertThat(b.state()).isEqualTo(OPEN);
    assertThat(transitions).last().isEqualTo("0->1 failure rate 100% over 4 calls >= 50%");
    assertThat(b.openUntilNanos() - clock.nanoTime()).isGreaterThan(OPEN_FOR);
  }

  @Test
  void aHealthyClosedPeriodResetsTheBackoff() {
    CircuitBreaker b = halfOpen(HIGHEST);
    closeThroughProbes(b);
    clock.advanceMillis(3_000 + 10_000);
    complete(b, 0, 4);
    assertThat(b.state()).isEqualTo(OPEN);
    assertThat(b.openUntilNanos() - clock.nanoTime()).isEqualTo(OPEN_FOR);
  }

  @Test
  void aRelapseSoonAfterClosingKeepsTheBackoffGrowing() {
    CircuitBreaker b = halfOpen(HIGHEST);
    closeThroughProbes(b);
    clock.advanceMillis(3_000 + 5_000);
    complete(b, 0, 4);
    assertThat(b.openUntilNanos() - clock.nanoTime()).isGreaterThan(OPEN_FOR);
  }

  @Test
  void aThrowingListenerDoesNotStopTheTransition() {
    CircuitBreaker b = new CircuitBreaker(breakerSpec(0, 1.0), clock, LOWEST);
    b.setListener(
        (from, to, why) -> {
          throw new IllegalStateException("broken listener");
        });
    complete(b, 0, 4);
    assertThat(b.state()).isEqualTo(OPEN);
  }

  @Test
  void onlyTheFourSpecTransitionsAreLegal() {
    List<String> legal = new ArrayList<>();
    for (int from = -1; from <= 3; from++) {
      for (int to = -1; to <= 3; to++) {
        if (BreakerState.legal(from, to)) {
          legal.add(from + "->" + to);
        }
      }
    }
    assertThat(legal).containsExactlyInAnyOrder("0->1", "1->2", "2->0", "2->1");
  }
}
