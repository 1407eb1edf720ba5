package io.levee.rules.policy.adaptive;

import static io.levee.rules.model.Priority.CRITICAL;
import static io.levee.rules.model.Priority.NORMAL;
import static io.levee.rules.model.Priority.SHEDDABLE;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.AdaptiveSpec;
import io.levee.rules.model.Priority;
import io.levee.rules.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The priority bands of a limiter that tells classes apart, on a manual clock. */
class AdaptiveLimiterPriorityTest {
  private static final long MS = 1_000_000L;
  private static final int SHOP = 3;
  private static final int EXPORT = 5;

  private final ManualClock clock = new ManualClock();
  private final Recording algorithm = new Recording();
  private final AdaptiveLimiter limiter =
      new AdaptiveLimiter(new AdaptiveSpec(1, 64, 16, 0.8), clock, new ManualCpu(0.3), algorithm);

  private int take(int n, int cls, Priority priority) {
    int taken = 0;
    for (int i = 0; i < n; i++) {
      if (limiter.tryAcquire(clock.nanoTime(), cls, priority)) {
        taken++;
      }
    }
    return taken;
  }

  private void release(int n, int cls, Priority priority) {
    for (int i = 0; i < n; i++) {
      limiter.release(clock.nanoTime(), 5 * MS, false, cls, priority);
    }
  }

  @Test
  void sheddableCallsStopBelowTheTopEighthWhileNormalOnesAreAbout() {
    assertThat(take(1, SHOP, NORMAL)).isEqualTo(1);
    assertThat(take(20, EXPORT, SHEDDABLE)).isEqualTo(13);
    assertThat(take(5, SHOP, NORMAL)).isEqualTo(2);
    assertThat(limiter.inFlight()).isEqualTo(16);
  }

  @Test
  void aRefusedNormalCallKeepsSheddableCallsToTheBottomHalfForAWindow() {
    assertThat(take(17, SHOP, NORMAL)).isEqualTo(16);
    release(10, SHOP, NORMAL);
    assertThat(take(20, EXPORT, SHEDDABLE)).isEqualTo(2);
    // The window is 50 ms until one closes; past it, the top eighth alone is kept.
    clock.advanceMillis(49);
    assertThat(take(20, EXPORT, SHEDDABLE)).isZero();
    clock.advanceMillis(2);
    assertThat(take(20, EXPORT, SHEDDABLE)).isEqualTo(6);
    assertThat(limiter.inFlight()).isEqualTo(14);
  }

  @Test
  void sheddableCallsTakeTheWholeLimitWhenNothingElseWantsIt() {
    assertThat(take(20, EXPORT, SHEDDABLE)).isEqualTo(16);
  }

  @Test
  void theSheddableBandOpensAgainOnceNormalCallsAreGoneForAWhile() {
    take(1, SHOP, NORMAL);
    release(1, SHOP, NORMAL);
    assertThat(take(20, EXPORT, SHEDDABLE)).isEqualTo(14);
    release(14, EXPORT, SHEDDABLE);
    // Each window closes after a second at most; a normal call is remembered for one to two.
    for (int i = 0; i < 3; i++) {
      clock.advanceMillis(1100);
      take(1, EXPORT, SHEDDABLE);
      release(1, EXPORT, SHEDDABLE);
    }
    assertThat(take(20, EXPORT, SHEDDABLE)).isEqualTo(16);
  }

  @Test
  void aCriticalCallInFlightAlsoKeepsTheTopFromSheddableCalls() {
    assertThat(take(1, SHOP, CRITICAL)).isEqualTo(1);
    assertThat(take(20, EXPORT, SHEDDABLE)).isEqualTo(13);
  }

  @Test
  void criticalCallsPassAFullLimitUntilTheyAloneFillIt() {
    assertThat(take(16, SHOP, NORMAL)).isEqualTo(16);
    assertThat(take(1, SHOP, NORMAL)).isZero();
    assertThat(take(20, EXPORT, CRITICAL)).isEqualTo(16);
    assertThat(limiter.criticalInFlight()).isEqualTo(16);
    assertThat(limiter.inFlight()).isEqualTo(32);
    release(1, EXPORT, CRITICAL);
    assertThat(take(1, EXPORT, CRITICAL)).isEqualTo(1);
    assertThat(take(1, SHOP, NORMAL)).isZero();
    release(16, EXPORT, CRITICAL);
    release(16, SHOP, NORMAL);
    assertThat(limiter.inFlight()).isZero();
    assertThat(limiter.criticalInFlight()).isZero();
  }

  @Test
  void theAlgorithmSeesACriticalCallPastTheLimitAsAFullLimit() {
    algorithm.next = 16;
    take(16, SHOP, NORMAL);
    take(4, EXPORT, CRITICAL);
    clock.advanceMillis(1100);
    release(4, EXPORT, CRITICAL);
    assertThat(algorithm.windows).isEqualTo(1);
    assertThat(algorithm.maxInFlight).isEqualTo(16);
    assertThat(algorithm.samples).isEqualTo(1);
  }

  @Test
  void everyAdmittedCallIsMeasuredAlikeWhateverItsPriority() {
    Recording ranked = new Recording();
    Recording unranked = new Recording();
    runMix(ranked, true);
    runMix(unranked, false);
    assertThat(ranked.windows).isGreaterThanOrEqualTo(5);
    assertThat(ranked.log).isEqualTo(unranked.log);
  }

  /** 100 rounds of 12 calls, a third of each priority when {@code ranked}, all normal if not. */
  private static void runMix(Recording algorithm, boolean ranked) {
    ManualClock clock = new ManualClock();
    AdaptiveLimiter l =
        new AdaptiveLimiter(new AdaptiveSpec(1, 64, 16, 0.8), clock, new ManualCpu(0.3), algorithm);
    Priority[] mix = {CRITICAL, NORMAL, SHEDDABLE};
    for (int round = 0; round < 100; round++) {
      long now = clock.nanoTime() + round * 10 * MS;
      for (int i = 0; i < 12; i++) {
        assertThat(l.tryAcquire(now, i % 3, ranked ? mix[i % 3] : NORMAL)).isTrue();
      }
      for (int i = 0; i < 12; i++) {
        long rtt = (5 + (round + i) % 7) * MS;
        l.release(now + rtt, rtt, (round + i) % 10 == 0, i % 3, ranked ? mix[i % 3] : NORMAL);
      }
    }
    assertThat(l.inFlight()).isZero();
    assertThat(l.criticalInFlight()).isZero();
  }

  @Test
  void aLimiterOfOneClassTakesEveryCallAsNormal() {
    AdaptiveLimiter one =
        AdaptiveLimiter.createForOneClass(
            new AdaptiveSpec(2, 2, 2, 0.8), clock, new ManualCpu(0.3));
    assertThat(one.tryAcquire(clock.nanoTime(), 0, SHEDDABLE)).isTrue();
    assertThat(one.tryAcquire(clock.nanoTime(), 0, SHEDDABLE)).isTrue();
    assertThat(one.tryAcquire(clock.nanoTime(), 0, CRITICAL)).isFalse();
    assertThat(one.criticalInFlight()).isZero();
  }

  @Test
  void monitorModeSaysWhetherEachPriorityWasWithinItsBand() {
    for (int i = 0; i < 14; i++) {
      assertThat(limiter.acquireUnconditionally(clock.nanoTime(), SHOP, NORMAL)).isTrue();
    }
    assertThat(limiter.acquireUnconditionally(clock.nanoTime(), EXPORT, SHEDDABLE)).isFalse();
    assertThat(limiter.acquireUnconditionally(clock.nanoTime(), SHOP, NORMAL)).isTrue();
    assertThat(limiter.acquireUnconditionally(clock.nanoTime(), SHOP, NORMAL)).isFalse();
    assertThat(limiter.acquireUnconditionally(clock.nanoTime(), EXPORT, CRITICAL)).isTrue();
    assertThat(limiter.inFlight()).isEqualTo(18);
    limiter.releaseWithoutSample(EXPORT, CRITICAL);
    limiter.releaseWithoutSample(EXPORT, SHEDDABLE);
    for (int i = 0; i < 16; i++) {
      limiter.releaseWithoutSample(SHOP, NORMAL);
    }
    assertThat(limiter.inFlight()).isZero();
    assertThat(limiter.criticalInFlight()).isZero();
  }

  @Test
  void racingCallsOfEveryPriorityGiveEveryPermitBack() throws Exception {
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicInteger overCritical = new AtomicInteger();
    List<Future<Integer>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      done.add(
          pool.submit(
              () -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                int admitted = 0;
                for (int i = 0; i < 20_000; i++) {
                  Priority p = Priority.values()[random.nextInt(3)];
                  int cls = random.nextInt(AdaptiveLimiter.CLASSES);
                  if (limiter.tryAcquire(clock.nanoTime(), cls, p)) {
                    admitted++;
                    if (limiter.criticalInFlight() > limiter.limit()) {
                      overCritical.incrementAndGet();
                    }
                    if (random.nextBoolean()) {
                      limiter.release(clock.nanoTime(), MS, false, cls, p);
                    } else {
                      limiter.releaseWithoutSample(cls, p);
                    }
                  }
                }
                return admitted;
              }));
    }
    int admitted = 0;
    for (Future<Integer> f : done) {
      admitted += f.get();
    }
    pool.shutdown();
    assertThat(admitted).isPositive();
    assertThat(overCritical).hasValue(0);
    assertThat(limiter.inFlight()).isZero();
    assertThat(limiter.criticalInFlight()).isZero();
    assertThat(take(20, EXPORT, CRITICAL)).isEqualTo(16);
  }

  private static final class Recording implements LimitAlgorithm {
    int next = -1;
    int windows;
    int samples;
    int maxInFlight;

    /** Per window: samples, drops, most in flight, median and p90 round trip. */
    final List<String> log = new ArrayList<>();

    @Override
    public int nextLimit(WindowSample window, int currentLimit) {
      windows++;
      samples = window.samples();
      maxInFlight = window.maxInFlight();
      log.add(
          samples
              + " "
              + window.drops()
              + " "
              + maxInFlight
              + " "
              + window.percentileRttNanos(0.5)
              + " "
              + window.percentileRttNanos(0.9));
      return next < 0 ? currentLimit : next;
    }
  }
}
