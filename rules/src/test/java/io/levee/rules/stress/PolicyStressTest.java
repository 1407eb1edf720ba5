package io.levee.rules.stress;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.CircuitBreakerSpec;
import io.levee.rules.model.ConcurrencySpec;
import io.levee.rules.model.RateLimitSpec;
import io.levee.rules.policy.CircuitBreaker;
import io.levee.rules.policy.ConcurrencyLimit;
import io.levee.rules.policy.KeyedBuckets;
import io.levee.rules.policy.TokenBucket;
import io.levee.rules.time.ManualClock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Many threads against one set of policies, with random outcomes and thrown exceptions. Threads
 * move a shared {@link ManualClock} forward as they go, so breakers trip, probe and close many
 * times within a second of real time.
 */
class PolicyStressTest {
  private static final int THREADS = 8;
  private static final int CALLS_PER_THREAD = 20_000;
  private static final long MICROS = 1_000L;
  private static final long MILLIS = 1_000_000L;

  private final ManualClock clock = new ManualClock();

  /** Runs {@code body} on {@link #THREADS} threads at once; rethrows the first failure. */
  private static void hammer(ThrowingRunnable body) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread[] threads = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      threads[t] =
          new Thread(
              () -> {
                try {
                  start.await();
                  body.run();
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              });
      threads[t].start();
    }
    start.countDown();
    for (Thread t : threads) {
      t.join(TimeUnit.MINUTES.toMillis(2));
      assertThat(t.isAlive()).as("worker finished").isFalse();
    }
    if (failure.get() != null) {
      throw new AssertionError("worker failed", failure.get());
    }
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test
  void breakerBucketAndLimitTogetherStayConsistent() throws Exception {
    CircuitBreaker breaker =
        new CircuitBreaker(
            new CircuitBreakerSpec(0.5, MILLIS, 0.8, 100 * MILLIS, 20, 5 * MILLIS, 50 * MILLIS, 3),
            clock,
            () -> ThreadLocalRandom.current().nextLong());
    TokenBucket bucket = new TokenBucket(new RateLimitSpec(50_000, 100, 0, 0, null), clock);
    ConcurrencyLimit limit = new ConcurrencyLimit(new ConcurrencySpec(4, 0));
    Set<String> transitions = ConcurrentHashMap.newKeySet();
    AtomicInteger badStates = new AtomicInteger();
    AtomicInteger overLimit = new AtomicInteger();
    AtomicLong acquired = new AtomicLong();
    AtomicLong released = new AtomicLong();
    breaker.setListener((from, to, why) -> transitions.add(from + "->" + to));

    // Rounds until every transition was seen (a scheduler can starve one round of a cycle), so the
    // last assertion shows the run exercised them all rather than depending on luck.
    for (int round = 0; round < 20 && transitions.size() < 4; round++) {
      hammer(
          () -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int i = 0; i < CALLS_PER_THREAD; i++) {
              clock.advanceNanos(random.nextLong(20 * MICROS));
              int state = breaker.state();
              if (state < 0 || state > 2) {
                badStates.incrementAndGet();
              }
              long start = clock.nanoTime();
              if (breaker.tryAcquire() != 0) {
                continue;
              }
              if (bucket.tryAcquire() < 0 || !limit.acquire(random.nextLong(50 * MICROS))) {
                breaker.releasePermission(start);
                continue;
              }
              acquired.incrementAndGet();
              boolean failed = false;
              try {
                if (limit.inFlight() > limit.limit()) {
                  overLimit.incrementAndGet();
                }
                clock.advanceNanos(random.nextLong(2 * MILLIS));
                // Long stretches of failures, then of successes, so the breaker cycles.
                boolean failing = (clock.nanoTime() / (200 * MILLIS)) % 2 == 0;
                if (random.nextInt(100) < (failing ? 70 : 5)) {
                  throw new IllegalStateException("downstream failed");
                }
              } catch (IllegalStateException e) {
                failed = true;
              } finally {
                breaker.onComplete(clock.nanoTime() - start, failed);
                released.incrementAndGet();
                limit.release();
              }
            }
          });
    }

    assertThat(badStates).hasValue(0);
    assertThat(overLimit).hasValue(0);
    assertThat(limit.inFlight()).isZero();
    assertThat(released.get()).isEqualTo(acquired.get());
    assertThat(transitions).isSubsetOf("0->1", "1->2", "2->0", "2->1");
    assertThat(transitions).contains("0->1", "1->2", "2->0", "2->1");
    assertThat(breaker.state()).isBetween(0, 2);
  }

  @Test
  void bucketNeverHoldsMoreThanBurstNorAdmitsMoreThanItsRate() throws Exception {
    double burst = 20;
    double rate = 1_000;
    TokenBucket bucket = new TokenBucket(new RateLimitSpec(rate, burst, 0, 0, null), clock);
    long begin = clock.nanoTime();
    AtomicLong admitted = new AtomicLong();
    AtomicInteger overfull = new AtomicInteger();

    hammer(
        () -> {
          ThreadLocalRandom random = ThreadLocalRandom.current();
          for (int i = 0; i < CALLS_PER_THREAD; i++) {
            clock.advanceNanos(random.nextLong(100 * MICROS));
            if (bucket.available() > burst) {
              overfull.incrementAndGet();
            }
            if (bucket.tryAcquire() == 0) {
              admitted.incrementAndGet();
            }
          }
        });

    double elapsedSeconds = (clock.nanoTime() - begin) / 1e9;
    assertThat(overfull).hasValue(0);
    assertThat((double) admitted.get()).isLessThanOrEqualTo(burst + rate * elapsedSeconds + 1);
    assertThat((double) admitted.get()).isGreaterThan(rate * elapsedSeconds / 2);
  }

  @Test
  void waitingForTheLimitNeverExceedsItAndDrainsToZero() throws Exception {
    ConcurrencyLimit limit = new ConcurrencyLimit(new ConcurrencySpec(3, 0));
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger maxInside = new AtomicInteger();
    AtomicLong acquired = new AtomicLong();
    AtomicLong released = new AtomicLong();

    hammer(
        () -> {
          ThreadLocalRandom random = ThreadLocalRandom.current();
          for (int i = 0; i < 2_000; i++) {
            if (!limit.acquire(random.nextLong(200 * MICROS))) {
              continue;
            }
            acquired.incrementAndGet();
            try {
              maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
              if (random.nextInt(10) == 0) {
                throw new IllegalStateException("work failed");
              }
              Thread.yield();
            } catch (IllegalStateException expected) {
              // the call failed; its slot is still released below
            } finally {
              inside.decrementAndGet();
              released.incrementAndGet();
              limit.release();
            }
          }
        });

    assertThat(maxInside.get()).isLessThanOrEqualTo(3);
    assertThat(limit.inFlight()).isZero();
    assertThat(released.get()).isEqualTo(acquired.get()).isPositive();
  }

  @Test
  void keyedBucketsStayBoundedUnderKeyChurn() throws Exception {
    KeyedBuckets keyed = new KeyedBuckets(new RateLimitSpec(100, 10, 0, 0, null), 64, clock);
    String[] keys = new String[1_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = "tenant-" + i;
    }
    AtomicInteger oversize = new AtomicInteger();

    hammer(
        () -> {
          ThreadLocalRandom random = ThreadLocalRandom.current();
          for (int i = 0; i < CALLS_PER_THREAD; i++) {
            clock.advanceNanos(random.nextLong(MILLIS));
            keyed.bucket(keys[random.nextInt(keys.length)]).tryAcquire(clock.nanoTime());
            if (keyed.size() > 64 + THREADS) {
              oversize.incrementAndGet();
            }
          }
        });

    assertThat(oversize).hasValue(0);
    assertThat(keyed.size()).isLessThanOrEqualTo(64 + THREADS);
    assertThat(keyed.evictions()).isPositive();
  }
}
