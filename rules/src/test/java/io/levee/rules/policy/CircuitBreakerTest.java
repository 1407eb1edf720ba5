package io.levee.rules.policy;

import static io.levee.rules.policy.CircuitBreaker.CLOSED;
import static io.levee.rules.policy.CircuitBreaker.HALF_OPEN;
import static io.levee.rules.policy.CircuitBreaker.OPEN;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.CircuitBreakerSpec;
import io.levee.rules.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

class CircuitBreakerTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long OPEN_FOR = 5 * SECOND;
  private static final LongSupplier LOWEST = () -> 0L;
  private static final LongSupplier HIGHEST = () -> -1L;

  private final ManualClock clock = new ManualClock();
  private final List<String> transitions = new ArrayList<>();

  private static CircuitBreakerSpec spec(long slowCallNanos, double slowCallRate) {
    return new CircuitBreakerSpec(
        0.5, slowCallNanos, slowCallRate, 10 * SECOND, 4, OPEN_FOR, 60 * SECOND, 3);
  }

  private CircuitBreaker breaker(LongSupplier random) {
    CircuitBreaker b = new CircuitBreaker(spec(0, 1.0), clock, random);
    b.setListener((from, to, why) -> transitions.add(from + "->" + to + " " + why));
    return b;
  }

  private void complete(CircuitBreaker b, int successes, int failures) {
    for (int i = 0; i < successes; i++) {
      b.onComplete(0, false);
    }
    for (int i = 0; i < failures; i++) {
      b.onComplete(0, true);
    }
  }

  private CircuitBreaker halfOpen(LongSupplier random) {
    CircuitBreaker b = breaker(random);
    complete(b, 0, 4);
    clock.advanceNanos(OPEN_FOR);
    return b;
  }

  private void closeThroughProbes(CircuitBreaker b) {
    clock.advanceNanos(b.openUntilNanos() - clock.nanoTime());
    for (int i = 0; i < 3; i++) {
      assertThat(b.tryAcquire()).isZero();
    }
    complete(b, 3, 0);
    assertThat(b.state()).isEqualTo(CLOSED);
  }

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
    CircuitBreaker b = new CircuitBreaker(spec(100_000_000L, 0.5), clock, LOWEST);
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
    assertThat(transitions).endsWith("2->0 probes succeeded");
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
    CircuitBreaker b = new CircuitBreaker(spec(SECOND, 1.0), clock, LOWEST);
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
    complete(b, 1, 2);
    assertThat(b.state()).isEqualTo(OPEN);
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
    CircuitBreaker b = new CircuitBreaker(spec(0, 1.0), clock, LOWEST);
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
