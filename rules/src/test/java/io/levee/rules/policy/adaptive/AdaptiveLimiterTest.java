package io.levee.rules.policy.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.AdaptiveSpec;
import io.levee.rules.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AdaptiveLimiterTest {
  private static final long MS = 1_000_000L;

  private final ManualClock clock = new ManualClock();
  private final ManualCpu cpu = new ManualCpu(0.42);
  private final Recording algorithm = new Recording();
  private final AdaptiveLimiter limiter =
      new AdaptiveLimiter(new AdaptiveSpec(1, 50, 3, 0.7), clock, cpu, algorithm);

  @Test
  void rejectsAtTheLimitAndAdmitsAgainAfterARelease() {
    assertThat(limiter.tryAcquire()).isTrue();
    assertThat(limiter.tryAcquire()).isTrue();
    assertThat(limiter.tryAcquire()).isTrue();
    assertThat(limiter.tryAcquire()).isFalse();
    assertThat(limiter.inFlight()).isEqualTo(3);
    limiter.release(MS, false);
    assertThat(limiter.inFlight()).isEqualTo(2);
    assertThat(limiter.tryAcquire()).isTrue();
  }

  @Test
  void closesTheWindowAtTheInstantItIsGiven() {
    long start = clock.nanoTime();
    for (int i = 0; i < AdaptiveLimiter.MIN_EVENTS; i++) {
      assertThat(limiter.tryAcquire(start)).isTrue();
      limiter.release(start, 5 * MS, false);
    }
    assertThat(algorithm.windows).isZero();
    limiter.tryAcquire(start + 150 * MS);
    limiter.release(start + 150 * MS, 5 * MS, false);
    assertThat(algorithm.windows).isEqualTo(1);
    assertThat(algorithm.windowNanos).isEqualTo(150 * MS);
  }

  @Test
  void countsTheCallsItTurnedAwayInTheirWindow() {
    long start = clock.nanoTime();
    for (int i = 0; i < 3; i++) {
      assertThat(limiter.tryAcquire(start)).isTrue();
    }
    for (int i = 0; i < 5; i++) {
      assertThat(limiter.tryAcquire(start)).isFalse();
    }
    for (int i = 0; i < 3; i++) {
      limiter.release(start, 5 * MS, false);
    }
    for (int i = 0; i < AdaptiveLimiter.MIN_EVENTS; i++) {
      limiter.tryAcquire(start + 150 * MS);
      limiter.release(start + 150 * MS, 5 * MS, false);
    }
    assertThat(algorithm.windows).isEqualTo(1);
    assertThat(algorithm.refused).isEqualTo(5);
  }

  @Test
  void aTraceThatFailsLosesItsLineNeverTheCallOrTheNewLimit() {
    List<String> lines = new ArrayList<>();
    AtomicInteger asked = new AtomicInteger();
    limiter.setTrace(
        new LimitTrace() {
          @Override
          public boolean tracing() {
            return asked.incrementAndGet() > 1;
          }

          @Override
          public void windowClosed(String line) {
            lines.add(line);
            throw new IllegalStateException("log closed");
          }
        });
    algorithm.next = 7;
    long start = clock.nanoTime();
    for (int window = 1; window <= 2; window++) {
      for (int i = 0; i < AdaptiveLimiter.MIN_EVENTS; i++) {
        assertThat(limiter.tryAcquire(start)).isTrue();
        limiter.release(start, 5 * MS, false);
      }
      start += 150 * MS;
      limiter.tryAcquire(start);
      limiter.release(start, 5 * MS, false);
    }
    assertThat(algorithm.windows).isEqualTo(2);
    assertThat(limiter.limit()).isEqualTo(7);
    assertThat(lines).hasSize(1); // the first window was not traced: no one was reading
    assertThat(lines.get(0))
        .startsWith("7 -> 7 (median 5.")
        .contains("41 calls, 0 failed, 0 refused in 150 ms");
  }

  @Test
  void monitorModeCountsPastTheLimitAndSaysWhetherItWasWithin() {
    assertThat(limiter.acquireUnconditionally()).isTrue();
    assertThat(limiter.acquireUnconditionally()).isTrue();
    assertThat(limiter.acquireUnconditionally()).isTrue();
    assertThat(limiter.acquireUnconditionally()).isFalse();
    assertThat(limiter.acquireUnconditionally()).isFalse();
    assertThat(limiter.inFlight()).isEqualTo(5);
    for (int i = 0; i < 5; i++) {
      limiter.releaseWithoutSample();
    }
    assertThat(limiter.inFlight()).isZero();
  }

  @Test
  void closesTheWindowOnceItIsOldEnoughAndHoldsEnoughCalls() {
    algorithm.next = 9;
    complete(AdaptiveLimiter.MIN_EVENTS - 2, 5 * MS);
    clock.advanceMillis(150);
    limiter.tryAcquire();
    limiter.release(5 * MS, true);
    assertThat(algorithm.windows).isZero(); // old enough, but one call short

    clock.advanceMillis(100);
    limiter.tryAcquire();
    limiter.release(5 * MS, false);
    assertThat(algorithm.windows).isEqualTo(1);
    assertThat(limiter.limit()).isEqualTo(9);
    assertThat(algorithm.samples).isEqualTo(AdaptiveLimiter.MIN_EVENTS - 1);
    assertThat(algorithm.drops).isEqualTo(1);
    assertThat(algorithm.maxInFlight).isEqualTo(1);
    assertThat(algorithm.cpu).isEqualTo(0.42);
    assertThat(algorithm.cpuTarget).isEqualTo(0.7);
    assertThat(algorithm.windowNanos).isEqualTo(250 * MS);
    assertThat(algorithm.currentLimit).isEqualTo(3);
  }

  @Test
  void neverClosesAWindowEarly() {
    complete(500, MS);
    clock.advanceMillis(AdaptiveLimiter.MIN_WINDOW_NANOS / MS - 1);
    complete(1, MS);
    assertThat(algorithm.windows).isZero();
    clock.advanceMillis(1);
    complete(1, MS);
    assertThat(algorithm.windows).isEqualTo(1);
  }

  @Test
  void closesAQuietWindowAfterOneSecond() {
    complete(2, MS);
    clock.advanceMillis(999);
    complete(1, MS);
    assertThat(algorithm.windows).isZero();
    clock.advanceMillis(1);
    complete(1, MS);
    assertThat(algorithm.windows).isEqualTo(1);
    assertThat(algorithm.samples).isEqualTo(4);
  }

  @Test
  void windowsLastTwiceTheMedianLatencyOfSlowCalls() {
    complete(AdaptiveLimiter.MIN_EVENTS, 300 * MS);
    clock.advanceMillis(100);
    complete(1, 300 * MS);
    assertThat(algorithm.windows).isEqualTo(1);
    complete(AdaptiveLimiter.MIN_EVENTS, 300 * MS);
    clock.advanceMillis(500);
    complete(1, 300 * MS);
    assertThat(algorithm.windows).isEqualTo(1);
    clock.advanceMillis(150);
    complete(1, 300 * MS);
    assertThat(algorithm.windows).isEqualTo(2);
  }

  @Test
  void aStalledResourceStillGetsDecisionsFromRejectedCalls() {
    algorithm.next = 1;
    while (limiter.tryAcquire()) {}
    clock.advanceMillis(1000);
    assertThat(limiter.tryAcquire()).isFalse();
    assertThat(algorithm.windows).isEqualTo(1);
    assertThat(algorithm.maxInFlight).isEqualTo(3);
    assertThat(limiter.limit()).isEqualTo(1);
  }

  @Test
  void clampsWhatTheAlgorithmSaysToTheSpec() {
    algorithm.next = 500;
    complete(AdaptiveLimiter.MIN_EVENTS, MS);
    clock.advanceMillis(100);
    complete(1, MS);
    assertThat(limiter.limit()).isEqualTo(50);
  }

  @Test
  void aClassThatFillsTheLimitLeavesTheTopEighthToTheOthers() {
    AdaptiveLimiter shared =
        new AdaptiveLimiter(new AdaptiveSpec(1, 50, 16, 0.7), clock, cpu, algorithm);
    assertThat(shared.tryAcquire(clock.nanoTime(), 0)).isTrue();
    shared.release(clock.nanoTime(), MS, false, 0);

    assertThat(acquire(shared, 1, 20)).as("the slow page, with the fast one seen").isEqualTo(14);
    // The fast page takes the reserve up to the limit, then its floor of 16 / (2 * 2) calls.
    assertThat(acquire(shared, 0, 20)).isEqualTo(4);
    assertThat(shared.inFlight()).isEqualTo(18);
    assertThat(shared.tryAcquire(clock.nanoTime(), 1)).isFalse();

    shared.releaseWithoutSample(0);
    assertThat(shared.tryAcquire(clock.nanoTime(), 1)).as("still above its share").isFalse();
    assertThat(shared.tryAcquire(clock.nanoTime(), 0)).isTrue();
  }

  @Test
  void callsTurnedAwayBelowTheLimitAreCountedApart() {
    AdaptiveLimiter shared =
        new AdaptiveLimiter(new AdaptiveSpec(1, 50, 16, 0.7), clock, cpu, algorithm);
    long start = clock.nanoTime();
    assertThat(shared.tryAcquire(start, 0)).isTrue();
    shared.release(start, MS, false, 0);
    assertThat(acquire(shared, 1, 20)).isEqualTo(14); // six turned away at 14 of 16
    assertThat(acquire(shared, 0, 5)).isEqualTo(4); // one turned away at 18 of 16
    release(shared, 1, 14);
    release(shared, 0, 4);
    for (int i = 0; i < AdaptiveLimiter.MIN_EVENTS; i++) {
      shared.tryAcquire(start + 150 * MS, 0);
      shared.release(start + 150 * MS, 5 * MS, false, 0);
    }
    assertThat(algorithm.windows).isEqualTo(1);
    assertThat(algorithm.refused).isEqualTo(7);
    assertThat(algorithm.refusedBelowLimit).isEqualTo(6);
  }

  @Test
  void oneClassAloneHasTheWholeLimitOnceTheOthersAreForgotten() {
    AdaptiveLimiter shared =
        new AdaptiveLimiter(new AdaptiveSpec(1, 50, 16, 0.7), clock, cpu, algorithm);
    assertThat(acquire(shared, 1, 20)).as("never saw another class").isEqualTo(16);
    release(shared, 1, 16);
    assertThat(shared.tryAcquire(clock.nanoTime(), 0)).isTrue();
    shared.release(clock.nanoTime(), MS, false, 0);
    assertThat(acquire(shared, 1, 20)).isEqualTo(14);
    release(shared, 1, 14);

    for (int second = 0; second < 2; second++) {
      clock.advanceMillis(1_100);
      assertThat(shared.tryAcquire(clock.nanoTime(), 1)).isTrue();
      shared.release(clock.nanoTime(), MS, false, 1);
    }
    assertThat(acquire(shared, 1, 20)).as("class 0 idle for two seconds").isEqualTo(16);
  }

  @Test
  void aLimiterForOneClassIsThePlainLimitWhateverClassItIsTold() {
    AdaptiveLimiter one =
        AdaptiveLimiter.createForOneClass(new AdaptiveSpec(1, 50, 16, 0.7), clock, cpu);
    assertThat(one.tryAcquire(clock.nanoTime(), 0)).isTrue();
    one.release(clock.nanoTime(), MS, false, 0);
    assertThat(acquire(one, 1, 20)).isEqualTo(16);
    release(one, 1, 16);
    assertThat(one.inFlight()).isZero();
  }

  private int acquire(AdaptiveLimiter shared, int cls, int attempts) {
    int admitted = 0;
    for (int i = 0; i < attempts; i++) {
      if (shared.tryAcquire(clock.nanoTime(), cls)) {
        admitted++;
      }
    }
    return admitted;
  }

  private void release(AdaptiveLimiter shared, int cls, int calls) {
    for (int i = 0; i < calls; i++) {
      shared.release(clock.nanoTime(), MS, false, cls);
    }
  }

  @Test
  void manyThreadsNeverExceedTheLimitAndLeaveNothingInFlight() throws Exception {
    ManualClock clock = new ManualClock();
    AdaptiveLimiter shared =
        AdaptiveLimiter.create(new AdaptiveSpec(2, 16, 8, 0.8), clock, new ManualCpu(0.3));
    int threads = 8;
    AtomicInteger running = new AtomicInteger();
    AtomicInteger worst = new AtomicInteger();
    AtomicInteger admitted = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Void>> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        workers.add(
            pool.submit(
                () -> {
                  // A worker's failure (an exception from the limiter, a missed start) reaches the
                  // test through its future, instead of dying with the thread.
                  assertThat(start.await(30, TimeUnit.SECONDS)).as("start signal").isTrue();
                  ThreadLocalRandom random = ThreadLocalRandom.current();
                  for (int i = 0; i < 20_000; i++) {
                    if (shared.tryAcquire()) {
                      admitted.incrementAndGet();
                      int now = running.incrementAndGet();
                      worst.accumulateAndGet(now, Math::max);
                      clock.advanceNanos(random.nextInt(50_000));
                      running.decrementAndGet();
                      shared.release(random.nextInt(20) * MS, random.nextInt(10) == 0);
                    }
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<Void> worker : workers) {
        worker.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(shared.inFlight()).isZero();
    assertThat(admitted.get()).isPositive();
    assertThat(worst.get()).isLessThanOrEqualTo(16);
  }

  private void complete(int calls, long rttNanos) {
    for (int i = 0; i < calls; i++) {
      limiter.tryAcquire();
      limiter.release(rttNanos, false);
    }
  }

  /** Remembers the last window it saw and answers a fixed limit (or keeps the current one). */
  /** Records what the limiter gave the algorithm; returns {@code next}, or the limit unchanged. */
  static final class Recording implements LimitAlgorithm {
    int next = -1;
    int windows;
    int samples;
    int drops;
    int refused;
    int refusedBelowLimit;
    int maxInFlight;
    int threads;
    int threadsAgain;
    boolean countsOn;
    double cpu;
    double cpuTarget;
    long windowNanos;
    int currentLimit;

    @Override
    public int nextLimit(WindowSample window, int currentLimit) {
      windows++;
      samples = window.samples();
      drops = window.drops();
      refused = window.refused();
      refusedBelowLimit = window.refusedBelowLimit();
      maxInFlight = window.maxInFlight();
      threads = window.threads();
      threadsAgain = window.threadsAgain();
      cpu = window.cpu();
      cpuTarget = window.cpuTarget();
      windowNanos = window.windowNanos();
      this.currentLimit = currentLimit;
      return next < 0 ? currentLimit : next;
    }

    @Override
    public boolean countsThreadsOn() {
      return countsOn;
    }
  }
}
