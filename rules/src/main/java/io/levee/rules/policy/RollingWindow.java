package io.levee.rules.policy;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Calls, failures and slow calls over the last {@code window}, kept in {@link #BUCKETS} time
 * buckets (SPEC §2: "bucketed at 1/10 of it or finer").
 *
 * <p>A ring of buckets, each stamped with its epoch ({@code now / bucketNanos}); a bucket whose
 * stamp is older than the current epoch is reused by the first recorder that sees it, so old
 * outcomes age out one bucket at a time and nothing runs in the background. A sum reads the buckets
 * whose epoch lies in the last {@link #BUCKETS} epochs, so the window covers between nine and ten
 * bucket widths. Cost: 2–4 atomic adds per record, 40 reads per sum, no allocation.
 *
 * <p>Concurrency: all cells live in one {@link AtomicLongArray}. The recorder that wins the CAS on
 * a stale stamp zeroes the counters; a recorder that counts into that bucket between the CAS and
 * the zeroing loses its count. That costs at most a few calls per bucket boundary under contention,
 * the price of needing no lock (Sentinel's LeapArray and Hystrix's buckets accept the same).
 */
final class RollingWindow {
  static final int BUCKETS = 10;

  private static final int EPOCH = 0;
  private static final int CALLS = 1;
  private static final int FAILURES = 2;
  private static final int SLOW = 3;
  private static final int STRIDE = 4;
  private static final double EPSILON = 1e-9;

  private final long bucketNanos;
  private final AtomicLongArray cells = new AtomicLongArray(BUCKETS * STRIDE);

  RollingWindow(long windowNanos) {
    this.bucketNanos = Math.max(1, windowNanos / BUCKETS);
    for (int i = 0; i < BUCKETS; i++) {
      cells.set(i * STRIDE + EPOCH, Long.MIN_VALUE);
    }
  }

  long bucketNanos() {
    return bucketNanos;
  }

  void record(long now, boolean failure, boolean slow) {
    long epoch = Math.floorDiv(now, bucketNanos);
    int at = (int) Math.floorMod(epoch, (long) BUCKETS) * STRIDE;
    long stamp = cells.get(at + EPOCH);
    if (stamp != epoch) {
      if (stamp > epoch) {
        return; // a caller so late that its bucket already serves a newer epoch
      }
      if (cells.compareAndSet(at + EPOCH, stamp, epoch)) {
        cells.set(at + CALLS, 0);
        cells.set(at + FAILURES, 0);
        cells.set(at + SLOW, 0);
      }
    }
    cells.incrementAndGet(at + CALLS);
    if (failure) {
      cells.incrementAndGet(at + FAILURES);
    }
    if (slow) {
      cells.incrementAndGet(at + SLOW);
    }
  }

  /**
   * Whether the window holds at least {@code minimumCalls} and the failure rate reaches {@code
   * failureRate}, or the slow-call rate reaches {@code slowRate} (pass a rate above 1 to disable).
   */
  boolean reached(long now, int minimumCalls, double failureRate, double slowRate) {
    long epoch = Math.floorDiv(now, bucketNanos);
    long calls = 0;
    long failures = 0;
    long slow = 0;
    for (int at = 0; at < BUCKETS * STRIDE; at += STRIDE) {
      if (current(cells.get(at + EPOCH), epoch)) {
        calls += cells.get(at + CALLS);
        failures += cells.get(at + FAILURES);
        slow += cells.get(at + SLOW);
      }
    }
    if (calls < minimumCalls || calls == 0) {
      return false;
    }
    return (failures > 0 && (double) failures / calls >= failureRate - EPSILON)
        || (slow > 0 && (double) slow / calls >= slowRate - EPSILON);
  }

  long calls(long now) {
    return sum(now, CALLS);
  }

  long failures(long now) {
    return sum(now, FAILURES);
  }

  long slow(long now) {
    return sum(now, SLOW);
  }

  private long sum(long now, int field) {
    long epoch = Math.floorDiv(now, bucketNanos);
    long total = 0;
    for (int at = 0; at < BUCKETS * STRIDE; at += STRIDE) {
      if (current(cells.get(at + EPOCH), epoch)) {
        total += cells.get(at + field);
      }
    }
    return total;
  }

  private static boolean current(long stamp, long epoch) {
    return stamp <= epoch && stamp > epoch - BUCKETS;
  }
}
