package io.levee.rules.policy;

import io.levee.rules.model.RateLimitSpec;
import io.levee.rules.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The token bucket of {@code rate-limit:} (SPEC §2), kept as a GCRA ("virtual scheduling").
 *
 * <p>What: instead of a token count and a refill timestamp, one number: the theoretical arrival
 * time {@code tat}, the instant at which the bucket would be full again. With emission interval
 * {@code T = 1s / rate} and tolerance {@code τ = (burst − 1)·T}, a call at {@code now} is admitted
 * at once when {@code tat − now ≤ τ} (at least one token), and then {@code tat := max(tat, now) +
 * T}. Tokens at {@code now} are {@code burst − max(0, tat − now)/T}, so the bucket can never hold
 * more than {@code burst}: the cap is structural, not a clamp somebody might forget.
 *
 * <p>Regimes: {@code wait = tat − now − τ}. {@code wait ≤ 0}: admitted now. {@code 0 < wait ≤
 * max-wait}: the token is reserved ({@code tat} advances) and the caller sleeps {@code wait}.
 * Otherwise rejected, consuming nothing, and {@code wait} is when a token would be there.
 *
 * <p>Warm-up ({@code warm-up: W > 0}, after Guava's SmoothWarmingUp and Sentinel's warm-up
 * controller): the bucket is cold after a start or after staying full (untouched) for at least
 * {@code W}. From the first call of a cold bucket, the warm factor {@code f(e) = 1/3 + 2/3 · min(1,
 * e/W)} climbs linearly with the time {@code e} since that call, and the bucket runs at rate {@code
 * f·rate} with capacity {@code max(1, f·burst)}: a cold service gets a third of its rate and of its
 * burst, full rate after {@code W}. A gap shorter than {@code W} keeps it warm.
 *
 * <p>Cost: no clock read when admitted (the caller passes {@code now}), a few arithmetic operations
 * and one CAS on an {@link AtomicLong} per call; no allocation, no lock. Warm-up adds a volatile
 * read, and a write only when a cold period ends.
 *
 * <p>Concurrency: {@code tat} is only changed by CAS of a value computed from the value read, so
 * concurrent callers are serialised without a lock; a loser recomputes. {@code warmSince} is
 * written racily when a cold bucket is touched: every racer writes nearly the same instant.
 */
public final class TokenBucket implements RateBucket {
  private static final double MAX_TOLERANCE_NANOS = 1e18;

  private final Clock clock;
  private final double intervalNanos;
  private final double burst;
  private final long maxWaitNanos;
  private final long warmUpNanos;
  private final long stableInterval;
  private final long stableTolerance;
  private final AtomicLong tat;
  private volatile long warmSince;

  public TokenBucket(RateLimitSpec spec, Clock clock) {
    this(spec, clock, clock.nanoTime());
  }

  /**
   * A bucket full at {@code now}: a caller that read the clock before creating it passes that
   * instant, or a burst of 1 would find its first token an instant in the future and refuse it.
   */
  TokenBucket(RateLimitSpec spec, Clock clock, long now) {
    this.clock = clock;
    this.intervalNanos = 1e9 / spec.permitsPerSecond;
    this.burst = Math.max(1.0, spec.burst);
    this.maxWaitNanos = Math.max(0, spec.maxWaitNanos);
    this.warmUpNanos = Math.max(0, spec.warmUpNanos);
    this.stableInterval = interval(1.0);
    this.stableTolerance = tolerance(1.0, stableInterval);
    // Full since long enough ago that the first call finds the bucket cold.
    this.tat = new AtomicLong(now - warmUpNanos);
    this.warmSince = now;
  }

  /** {@link #tryAcquire(long)} at the clock's current instant. */
  public long tryAcquire() {
    return tryAcquire(clock.nanoTime());
  }

  /**
   * Takes a token at {@code now} (this bucket's clock, read once by the caller). {@code >= 0}:
   * admitted after sleeping that many nanos (0: at once; more only up to {@code max-wait}, the
   * token being reserved). {@code < 0}: rejected, nothing consumed, and {@code -result >= 1} nanos
   * until a token would be there.
   */
  @Override
  public long tryAcquire(long now) {
    boolean rejudged = false;
    for (; ; ) {
      long t = tat.get();
      long interval = stableInterval;
      long tolerance = stableTolerance;
      if (warmUpNanos > 0) {
        double f = warmFactor(t, now, true);
        interval = interval(f);
        tolerance = tolerance(f, interval);
      }
      long result = decide(t, now, tolerance, maxWaitNanos);
      if (result < 0) {
        // A caller descheduled between reading the clock and getting here (an overloaded host,
        // a safepoint) finds tat moved on by callers with fresher instants, and looks early by
        // the time it lost: it would be refused a bucket that holds tokens. A refusal is judged
        // once more at the clock's instant; admissions never pay that clock read.
        long fresh = clock.nanoTime();
        if (!rejudged && fresh - now > 0) {
          rejudged = true;
          now = fresh;
          continue;
        }
        return result;
      }
      if (tat.compareAndSet(t, next(t, now, interval))) {
        return result;
      }
    }
  }

  /** Tokens in the bucket now (negative tokens of reservations show as 0). */
  public double available() {
    long now = clock.nanoTime();
    long t = tat.get();
    double f = warmUpNanos > 0 ? warmFactor(t, now, false) : 1.0;
    double capacity = Math.max(1.0, burst * f);
    if (now - t >= 0) {
      return capacity;
    }
    return Math.max(0.0, capacity - (t - now) / (intervalNanos / f));
  }

  /**
   * The decision of a call at {@code now} on a bucket at {@code tat}: the wait (0 for none) if it
   * is admitted, or minus the wait if that exceeds {@code maxWait}.
   */
  static long decide(long tat, long now, long tolerance, long maxWait) {
    long wait = tat - now - tolerance;
    if (wait <= 0) {
      return 0;
    }
    return wait <= maxWait ? wait : -wait;
  }

  /** The bucket after admitting one call at {@code now}. */
  static long next(long tat, long now, long interval) {
    return (tat - now > 0 ? tat : now) + interval;
  }

  private double warmFactor(long t, long now, boolean touch) {
    long since = warmSince;
    if (now - t >= warmUpNanos) {
      // Full for at least the warm-up time: idle, so cold again from this call on.
      if (!touch) {
        return 1.0 / 3;
      }
      warmSince = now;
      since = now;
    }
    double warmed = Math.min(1.0, (double) (now - since) / warmUpNanos);
    return (1.0 + 2.0 * warmed) / 3;
  }

  private long interval(double f) {
    return Math.max(1L, Math.round(intervalNanos / f));
  }

  private long tolerance(double f, long interval) {
    double capacity = Math.max(1.0, burst * f);
    return (long) Math.min(MAX_TOLERANCE_NANOS, (capacity - 1) * interval);
  }
}
