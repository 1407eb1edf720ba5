package io.levee.rules.policy;

import static io.levee.rules.policy.CircuitBreaker.CLOSED;
import static io.levee.rules.policy.CircuitBreaker.HALF_OPEN;
import static io.levee.rules.policy.CircuitBreaker.OPEN;
import static io.levee.rules.testing.TestRules.breakerSpec;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The closed window, the open wait and the half-open probes. */
class CircuitBreakerTest extends BreakerTestSupport {
  @Test
  void opensWhenFailureRateReachesThreshold() {
    CircuitBreaker b = breaker(LOWEST);
    complete(b, 2, 1);
    assertThat(b.state()).isEqualTo(CLOSED);
    complete(b, 0, 1);
    assertThat(b.state()).isEqualTo(OPEN);
    assertThat(transitions).containsExactly("0->1 failure rate 50% over 4 calls >= 50%");
  }

  @Test
  void staysClosedBelowTheFailureRate() {
    CircuitBreaker b = breaker(LOWEST);
    complete(b, 3, 1);
    complete(b, 1, 0);
    assertThat(b.state()).isEqualTo(CLOSED);
    assertThat(b.tryAcquire()).isZero();
  }

  @Test
  void staysClosedBelowMinimumCalls() {
    CircuitBreaker b = breaker(LOWEST);
    complete(b, 0, 3);
    assertThat(b.state()).isEqualTo(CLOSED);
  }

  @Test
  void opensWhenSlowCallRateReachesThreshold() {
    CircuitBreaker b = new CircuitBreaker(breakerSpec(100_000_000L, 0.5), clock, LOWEST);
    b.setListener((from, to, why) -> transitions.add(why));
    b.onComplete(100_000_000L, false); // exactly at slow-call is not slow
    b.onComplete(200_000_000L, false);
    b.onComplete(0, false);
    assertThat(b.state()).isEqualTo(CLOSED);
    b.onComplete(300_000_000L, false);
    assertThat(b.state()).isEqualTo(OPEN);
    assertThat(transitions).containsExactly("slow-call rate 50% over 4 calls >= 50%");
  }

  @Test
  void slowCallsDoNotCountWithoutASlowCallThreshold() {
    CircuitBreaker b = breaker(LOWEST);
    for (int i = 0; i < 10; i++) {
      b.onComplete(60 * SECOND, false);
    }
    assertThat(b.state()).isEqualTo(CLOSED);
  }

  @Test
  void failuresCountUntilTheirBucketLeavesTheWindow() {
    CircuitBreaker b = breaker(LOWEST);
    complete(b, 0, 2);
    clock.advanceMillis(9_999);
    complete(b, 2, 0);
    assertThat(b.state()).isEqualTo(OPEN);
  }

  @Test
  void oldFailuresAgeOutBucketByBucket() {
    CircuitBreaker b = breaker(LOWEST);
    complete(b, 0, 2);
    clock.advanceMillis(9_000);
    complete(b, 1, 0);
    clock.advanceMillis(1_000);
    complete(b, 1, 0);
    complete(b, 0, 1);
    // Window now: one success 1 s ago, a success and a failure now; the first two failures aged
    // out.
    assertThat(b.state()).isEqualTo(CLOSED);
    complete(b, 0, 1);
    assertThat(b.state()).isEqualTo(OPEN);
  }

  @Test
  void openRejectsWithTheNanosUntilTheFirstProbe() {
    CircuitBreaker b = breaker(LOWEST);
    complete(b, 0, 4);
    assertThat(b.tryAcquire()).isEqualTo(OPEN_FOR);
    clock.advanceMillis(2_000);
    assertThat(b.tryAcquire()).isEqualTo(OPEN_FOR - 2 * SECOND);
    assertThat(b.openUntilNanos()).isEqualTo(clock.nanoTime() + 3 * SECOND);
  }

  @Test
  void decidesAndRecordsAtTheInstantsItIsGiven() {
    CircuitBreaker b = breaker(LOWEST);
    long tripped = clock.nanoTime() + 2 * SECOND;
    for (int i = 0; i < 4; i++) {
      b.onComplete(tripped, 0, true);
    }
    assertThat(b.openUntilNanos()).isEqualTo(tripped + OPEN_FOR);
    assertThat(b.tryAcquire(tripped + SECOND)).isEqualTo(OPEN_FOR - SECOND);
    assertThat(b.tryAcquire(tripped + OPEN_FOR)).isZero();
    assertThat(b.state()).isEqualTo(HALF_OPEN);
  }

  @Test
  void movesToHalfOpenOnTheFirstCallAfterTheWait() {
    CircuitBreaker b = breaker(LOWEST);
    complete(b, 0, 4);
    clock.advanceNanos(OPEN_FOR - 1);
    assertThat(b.tryAcquire()).isEqualTo(1);
    clock.advanceNanos(1);
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.state()).isEqualTo(HALF_OPEN);
  }

  @Test
  void admitsExactlyHalfOpenCallsProbes() {
    CircuitBreaker b = halfOpen(LOWEST);
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isPositive();
    assertThat(b.state()).isEqualTo(HALF_OPEN);
  }

  @Test
  void aReleasedProbeCanBeTakenAgain() {
    CircuitBreaker b = halfOpen(LOWEST);
    for (int i = 0; i < 3; i++) {
      b.tryAcquire();
    }
    b.releasePermission(clock.nanoTime());
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isPositive();
  }

  @Test
  void aCallAdmittedBeforeTheTripGivesBackNoProbe() {
    long startedBeforeTrip = clock.nanoTime() - 1;
    CircuitBreaker b = halfOpen(LOWEST);
    for (int i = 0; i < 3; i++) {
      assertThat(b.tryAcquire()).isZero();
    }
    b.releasePermission(startedBeforeTrip);
    assertThat(b.tryAcquire()).isPositive();
  }

  @Test
  void aProbeOfAnEarlierHalfOpenGivesBackNothingToTheNext() {
    CircuitBreaker b = halfOpen(LOWEST);
    long earlierProbe = clock.nanoTime();
    assertThat(b.tryAcquire()).isZero();
    clock.advanceNanos(1);
    complete(b, 0, 1);
    assertThat(b.state()).isEqualTo(OPEN);
    clock.advanceNanos(b.openUntilNanos() - clock.nanoTime());
    for (int i = 0; i < 3; i++) {
      assertThat(b.tryAcquire()).isZero();
    }
    b.releasePermission(earlierProbe);
    assertThat(b.tryAcquire()).isPositive();
  }

  @Test
  void closesWhenAllProbesSucceed() {
    CircuitBreaker b = halfOpen(LOWEST);
    for (int i = 0; i < 3; i++) {
      b.tryAcquire();
    }
    complete(b, 2, 0);
    assertThat(b.state()).isEqualTo(HALF_OPEN);
    complete(b, 1, 0);
    assertThat(b.state()).isEqualTo(CLOSED);
    assertThat(transitions)
        .endsWith(
            "2->0 probes succeeded; ramping calls back up: 10 %, 25 %, then 50 % of calls for 1s"
                + " each, then all");
  }

  @Test
  void reopensOnOneBadProbeForLonger() {
    CircuitBreaker b = halfOpen(HIGHEST);
    b.tryAcquire();
    b.tryAcquire();
    complete(b, 1, 1);
    assertThat(b.state()).isEqualTo(OPEN);
    assertThat(transitions).endsWith("2->1 probe failed");
    assertThat(b.openUntilNanos() - clock.nanoTime()).isBetween(OPEN_FOR + 1, 2 * OPEN_FOR);
  }

  @Test
  void aSlowProbeReopens() {
    CircuitBreaker b = new CircuitBreaker(breakerSpec(SECOND, 1.0), clock, LOWEST);
    complete(b, 0, 4);
    clock.advanceNanos(OPEN_FOR);
    b.tryAcquire();
    b.onComplete(2 * SECOND, false);
    assertThat(b.state()).isEqualTo(OPEN);
  }

  @Test
  void halfOpenWhoseProbesNeverFinishGoesBackToOpen() {
    CircuitBreaker b = halfOpen(LOWEST);
    for (int i = 0; i < 3; i++) {
      b.tryAcquire();
    }
    clock.advanceNanos(OPEN_FOR - 1);
    assertThat(b.tryAcquire()).isEqualTo(1);
    assertThat(b.state()).isEqualTo(HALF_OPEN);
    clock.advanceNanos(1);
    assertThat(b.tryAcquire()).isPositive();
    assertThat(b.state()).isEqualTo(OPEN);
    assertThat(transitions).endsWith("2->1 probes did not finish");
  }

  @Test
  void callsAdmittedBeforeTheTripAreNotTakenForProbes() {
    CircuitBreaker b = halfOpen(LOWEST);
    b.tryAcquire();
    // Started before the breaker opened: a stale closed-state call, failing or not.
    long startedBeforeTrip = OPEN_FOR + 1;
    b.onComplete(startedBeforeTrip, true);
    b.onComplete(startedBeforeTrip, false);
    b.onComplete(startedBeforeTrip, false);
    b.onComplete(startedBeforeTrip, false);
    assertThat(b.state()).isEqualTo(HALF_OPEN);
  }

  @Test
  void callsItDidNotAdmitAreNoProbes() {
    CircuitBreaker b = halfOpen(LOWEST);
    for (int i = 0; i < 3; i++) {
      assertThat(b.tryAcquire()).isZero();
    }
    for (int i = 0; i < 3; i++) {
      b.onComplete(clock.nanoTime(), 0, false, false);
    }
    b.onComplete(clock.nanoTime(), 0, true, false);
    assertThat(b.state()).isEqualTo(HALF_OPEN);
    complete(b, 3, 0);
    assertThat(b.state()).isEqualTo(CLOSED);
  }

  @Test
  void callsItDidNotAdmitStillCountWhileClosed() {
    CircuitBreaker b = breaker(LOWEST);
    for (int i = 0; i < 4; i++) {
      b.onComplete(clock.nanoTime(), 0, true, false);
    }
    assertThat(b.state()).isEqualTo(OPEN);
  }

  @Test
  void completionsWhileOpenAreIgnored() {
    CircuitBreaker b = breaker(LOWEST);
    complete(b, 0, 4);
    complete(b, 10, 10);
    assertThat(b.state()).isEqualTo(OPEN);
    assertThat(transitions).hasSize(1);
  }
}
