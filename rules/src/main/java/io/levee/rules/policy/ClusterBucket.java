package io.levee.rules.policy;

import io.levee.rules.model.RateLimitSpec;
import io.levee.rules.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * This instance's part of a rate that every instance of a cluster shares ({@code scope: cluster},
 * SPEC §5.3): a token bucket, kept as {@link TokenBucket} keeps one, whose rate is the share the
 * cluster last gave this instance; and the count of calls it was asked for, from which the
 * instance's demand is told to the cluster.
 *
 * <p>Why a share and not tokens fetched from Redis: the decision stays on the call's thread with no
 * I/O and no wait; a background thread ({@code settle}) reports the demand and sets the share every
 * {@code sync}. The cluster splits the rate so that the shares add up to it (see the agent's
 * settling script), so the instances together admit the rate, give or take what demand moved within
 * one sync.
 *
 * <p>The burst is split like the rate: a share {@code s} of rate {@code R} holds {@code B·s/R}
 * tokens (at least 1), so a fleet together holds one burst.
 *
 * <p>Cost: as {@link TokenBucket} without warm-up, plus a volatile read of the share and one {@link
 * LongAdder} increment per call; no allocation, no lock. The sync thread allocates a small {@code
 * Share} when the share changes.
 *
 * <p>Concurrency: {@code tat} changes only by CAS, as in {@link TokenBucket}; {@code share} is a
 * volatile reference to an immutable value, so a call sees a rate and its tolerance together. The
 * demand fields are the sync thread's alone.
 */
public final class ClusterBucket implements RateBucket {
  /**
   * The smallest share kept as a rate (one call in about 30 years); a smaller one would make
   * intervals overflow. Never above the cluster's rate: a fleet of twenty sharing 60/h gets 3/h
   * each, not a floor that would add up to more than the rate.
   */
  private static final double MIN_RATE = 1e-9;

  private static final double MAX_TOLERANCE_NANOS = 1e18;

  /** A share of the rate, with its interval and tolerance; null {@link #share} admits all. */
  private static final class Share {
    final double rate;
    final long interval;
    final long tolerance;

    Share(double rate, double burst) {
      this.rate = rate;
      this.interval = Math.max(1L, Math.round(1e9 / rate));
      this.tolerance = (long) Math.min(MAX_TOLERANCE_NANOS, (Math.max(1.0, burst) - 1) * interval);
    }
  }

  private final Clock clock;
  private final double rate;
  private final double burst;
  private final long maxWaitNanos;
  private final AtomicLong tat;
  private final LongAdder asked = new LongAdder();
  private volatile Share share;

  // The sync thread's: the demand it measured and when.
  private long measuredAt;
  private double demand = -1;
  private volatile int instances;

  /**
   * A bucket empty at {@code now}, at the whole rate until the cluster says otherwise: an instance
   * does not know its share of the burst before it first settles, and every instance of a fleet
   * starting with the whole burst would admit a burst each.
   */
  public ClusterBucket(RateLimitSpec spec, Clock clock, long now) {
    this.clock = clock;
    this.rate = spec.permitsPerSecond;
    this.burst = Math.max(1.0, spec.burst);
    this.maxWaitNanos = Math.max(0, spec.maxWaitNanos);
    this.share = new Share(rate, burst);
    this.tat = new AtomicLong(now + share.tolerance);
    this.measuredAt = now;
  }

  @Override
  public long tryAcquire(long now) {
    asked.increment();
    Share s = share;
    if (s == null) {
      return 0;
    }
    boolean rejudged = false;
    for (; ; ) {
      long t = tat.get();
      long result = TokenBucket.decide(t, now, s.tolerance, maxWaitNanos);
      if (result < 0) {
        // As in TokenBucket: a caller descheduled after reading the clock is judged once more.
        long fresh = clock.nanoTime();
        if (!rejudged && fresh - now > 0) {
          rejudged = true;
          now = fresh;
          continue;
        }
        return result;
      }
      if (tat.compareAndSet(t, TokenBucket.next(t, now, s.interval))) {
        return result;
      }
    }
  }

  /** The rate the whole cluster shares, in calls per second. */
  public double clusterRate() {
    return rate;
  }

  /** This instance's share now, in calls per second; infinite while it admits every call. */
  public double share() {
    Share s = share;
    return s == null ? Double.POSITIVE_INFINITY : s.rate;
  }

  /**
   * Sets this instance's share of the rate, in calls per second. What the bucket owes (calls
   * admitted ahead of the old share) is owed in calls, not in time: at a larger share it is paid
   * back sooner, and never more than the bucket holds at the new share. Without that, an instance
   * whose share was tiny (one call due in seconds) would stay blocked long after the cluster gave
   * it more, and one whose share shrank would owe its old burst at the new pace.
   */
  public void share(double permitsPerSecond) {
    if (Double.isNaN(permitsPerSecond)) {
      return;
    }
    double r = Math.min(rate, Math.max(MIN_RATE, permitsPerSecond));
    Share old = share;
    if (old != null && old.rate == r) {
      return;
    }
    Share next = new Share(r, burst * r / rate);
    share = next;
    if (old == null) {
      return;
    }
    long now = clock.nanoTime();
    for (; ; ) {
      long t = tat.get();
      long owed = t - now;
      if (owed <= 0) {
        return;
      }
      // At most empty at the new share: a bucket never owes more than its burst and one call.
      long rescaled =
          now
              + (long)
                  Math.min(
                      owed * ((double) next.interval / old.interval),
                      (double) next.tolerance + next.interval);
      if (tat.compareAndSet(t, rescaled)) {
        return;
      }
    }
  }

  /** Admits every call until the next {@link #share(double)}: {@code on-failure: open}. */
  public void open() {
    share = null;
  }

  /**
   * The calls per second this bucket was asked for, measured at {@code now} from the count since
   * the last measure and smoothed: a rise over about {@code riseNanos} (an instance whose load
   * grows claims its part within a few settlings, while one call in a quiet sync does not look like
   * a load), a fall over about {@code fallNanos} (a lull does not give the share away).
   */
  public double demand(long now, long riseNanos, long fallNanos) {
    long elapsed = now - measuredAt;
    if (elapsed <= 0) {
      return Math.max(0, demand);
    }
    double recent = asked.sumThenReset() * 1e9 / elapsed;
    measuredAt = now;
    if (demand < 0) {
      demand = recent;
    } else {
      long smoothing = recent > demand ? riseNanos : fallNanos;
      demand += (1 - Math.exp(-(double) elapsed / smoothing)) * (recent - demand);
    }
    return demand;
  }

  /** The instances the cluster last counted for this rate; 0 before the first settling. */
  public int instances() {
    return instances;
  }

  public void instances(int n) {
    instances = n;
  }
}
