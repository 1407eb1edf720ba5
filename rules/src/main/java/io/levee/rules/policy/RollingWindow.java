package io.levee.rules.policy;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * Calls, failures and slow calls over the last {@code window}, kept in {@link #BUCKETS} time
 * buckets (SPEC §2: "bucketed at 1/10 of it or finer").
 *
 * <p>A ring of buckets, each stamped with its epoch ({@code now / bucketNanos}); a bucket whose
 * stamp is older than the current epoch is reused by the first recorder that sees it, so old
 * outcomes age out one bucket at a time and nothing runs in the background. A sum reads the buckets
 * whose epoch lies in the last {@link #BUCKETS} epochs, so the window covers between nine and ten
 * bucket widths.
 *
 * <p>Cost: one atomic add per success, up to three per failure or slow call; no allocation. The
 * epoch is a division only when the clock has left the bucket of the last call, a multiplication
 * otherwise. Whether the thresholds are reached is a sum of 40 cells, but only while a failure or
 * slow call of the last {@link #BUCKETS} epochs remains: without one no rate can reach anything, so
 * a healthy window answers from one field.
 *
 * <p>Concurrency: all cells live in one {@link AtomicLongArray}. The recorder that wins the CAS on
 * a stale stamp zeroes the counters; a recorder that counts into that bucket between the CAS and
 * the zeroing loses its count. That costs at most a few calls per bucket boundary under contention,
 * the price of needing no lock (Sentinel's LeapArray and Hystrix's buckets accept the same). {@code
 * lastBad} only grows (by CAS) and is written before the cell, and every record checks the
 * thresholds after its own add, so when a check skips the sum because it read an old {@code
 * lastBad}, the failure it missed is counted by a record whose own check sees this call. {@code
 * lastEpoch} is a racy cache: any value it holds is checked before use.
 */
final class RollingWindow {
  static final int BUCKETS = 10;

  private static final int EPOCH = 0;
  private static final int CALLS = 1;
  private static final int FAILURES = 2;
  private static final int SLOW = 3;
  private static final int STRIDE = 4;
  private static final double EPSILON = 1e-9;

  private static final AtomicLongFieldUpdater<RollingWindow> LAST_BAD =
      AtomicLongFieldUpdater.newUpdater(RollingWindow.class, "lastBad");

  private final long bucketNanos;
  private final AtomicLongArray cells = new AtomicLongArray(BUCKETS * STRIDE);

  /** Epoch of the latest failure or slow call; none yet is older than any window. */
  private volatile long lastBad = Long.MIN_VALUE;

  /** Epoch of the last call seen. */
  private volatile long lastEpoch;

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
    long epoch = epoch(now);
    if (failure || slow) {
      markBad(epoch);
    }
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
    long epoch = epoch(now);
    if (lastBad <= epoch - BUCKETS) {
      return false;
    }
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
    long epoch = epoch(now);
    long total = 0;
    for (int at = 0; at < BUCKETS * STRIDE; at += STRIDE) {
      if (current(cells.get(at + EPOCH), epoch)) {
        total += cells.get(at + field);
      }
    }
    return total;
  }

  private long epoch(long now) {
    long epoch = lastEpoch;
    long into = now - epoch * bucketNanos;
    if (into >= 0 && into < bucketNanos) {
      return epoch;
    }
    epoch = Math.floorDiv(now, bucketNanos);
    lastEpoch = epoch;
    return epoch;
  }

  private void markBad(long epoch) {
    for (long last = lastBad; epoch > last; last = lastBad) {
      if (LAST_BAD.compareAndSet(this, last, epoch)) {
        return;
      }
    }
  }

  private static boolean current(long stamp, long epoch) {
    return stamp <= epoch && stamp > epoch - BUCKETS;
  }
}
