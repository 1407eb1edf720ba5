package io.levee.rules.policy.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.levee.rules.model.AdaptiveSpec;
import io.levee.rules.time.ManualClock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The short wait of a call that finds the limit full. The waits given here are long (10 s), so
 * that a result never depends on how fast this machine is: a call that should get a permit gets it
 * when one is freed, and one that should not wait returns while an earlier waiter still waits.
 */
class AdaptiveLimiterWaitTest {
  private static final long MS = 1_000_000L;
  private static final long LONG_WAIT = 10_000 * MS;

  private final ManualClock clock = new ManualClock();
  private int next = -1;
  private final AdaptiveLimiter limiter =
      new AdaptiveLimiter(
          new AdaptiveSpec(1, 100, 3, 0.8),
          clock,
          new ManualCpu(0.5),
          (window, current) -> next < 0 ? current : next);

  @Test
  void aCallThatFindsTheLimitFullTakesThePermitFreedWhileItWaits() throws Exception {
    fill(3);
    CompletableFuture<Boolean> waiter = waitInAnotherThread();
    awaitWaiters(1);
    assertThat(waiter).isNotDone();

    limiter.release(clock.nanoTime(), 5 * MS, false);

    assertThat(waiter.get(LONG_WAIT, TimeUnit.NANOSECONDS)).isTrue();
    assertThat(limiter.inFlight()).isEqualTo(3);
    assertThat(limiter.waiters()).isZero();
  }

  @Test
  void aPermitGivenBackWithoutASampleWakesAWaiterToo() throws Exception {
    fill(3);
    CompletableFuture<Boolean> waiter = waitInAnotherThread();
    awaitWaiters(1);

    limiter.releaseWithoutSample();

    assertThat(waiter.get(LONG_WAIT, TimeUnit.NANOSECONDS)).isTrue();
  }

  @Test
  void onlyAQuarterOfTheLimitWaitsAndTheOthersAreTurnedAwayAtOnce() throws Exception {
    fill(3); // a limit of 3: one waiter at most
    CompletableFuture<Boolean> first = waitInAnotherThread();
    awaitWaiters(1);

    // Had this call waited too, the first waiter, whose wait began earlier, would have given up first.
    assertThat(limiter.awaitPermit(0, LONG_WAIT)).isFalse();
    assertThat(limiter.waiters()).isEqualTo(1);

    limiter.release(clock.nanoTime(), 5 * MS, false);
    assertThat(first.get(LONG_WAIT, TimeUnit.NANOSECONDS)).isTrue();
  }

  @Test
  void noCallWaitsBeforeAWindowHadAMedian() {
    fill(3);
    assertThat(limiter.queueWaitNanos()).isZero();
    assertThat(limiter.awaitPermit(0)).isFalse();
    assertThat(limiter.waiters()).isZero();
  }

  @Test
  void waitsAtMostTwiceTheTimeInWhichOneOfTheLimitsCallsCompletes() {
    next = 4;
    closeAWindowWithMedian(5 * MS);
    assertThat(limiter.limit()).isEqualTo(4);
    // The median comes from the recorder's histogram, to within a few percent.
    assertThat(limiter.queueWaitNanos()).isCloseTo(2 * 5 * MS / 4, withinPercentage(5));

    closeAWindowWithMedian(400 * MS); // a slow dependency: 200 ms, capped
    assertThat(limiter.queueWaitNanos()).isEqualTo(AdaptiveLimiter.MAX_QUEUE_WAIT_NANOS);
  }

  private void fill(int calls) {
    for (int i = 0; i < calls; i++) {
      assertThat(limiter.tryAcquire(clock.nanoTime())).isTrue();
    }
    assertThat(limiter.tryAcquire(clock.nanoTime())).isFalse();
  }

  private CompletableFuture<Boolean> waitInAnotherThread() {
    CompletableFuture<Boolean> result = new CompletableFuture<>();
    Thread t = new Thread(() -> result.complete(limiter.awaitPermit(0, LONG_WAIT)), "waiter");
    t.setDaemon(true);
    t.start();
    return result;
  }

  private void awaitWaiters(int n) throws InterruptedException {
    long deadline = System.nanoTime() + LONG_WAIT;
    while (limiter.waiters() < n && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    assertThat(limiter.waiters()).isEqualTo(n);
  }

  /** Calls of {@code rttNanos} fill a window; the last one, a second later, closes it. */
  private void closeAWindowWithMedian(long rttNanos) {
    for (int i = 0; i <= AdaptiveLimiter.MIN_EVENTS; i++) {
      if (i == AdaptiveLimiter.MIN_EVENTS) {
        clock.advanceMillis(1_000);
      }
      assertThat(limiter.tryAcquire(clock.nanoTime())).isTrue();
      limiter.release(clock.nanoTime(), rttNanos, false);
    }
  }
}
