package io.levee.rules.model;

/** {@code rate-limit:} with defaults applied. */
public final class RateLimitSpec {
  public final double permitsPerSecond;

  /** Bucket capacity in tokens: default one second of {@code rate}, at least 1. */
  public final double burst;

  /** 0: no warm-up. */
  public final long warmUpNanos;

  /** 0: reject at once. */
  public final long maxWaitNanos;

  /** Separate bucket per key (servlet only), or null for one bucket. */
  public final KeySpec per;

  public RateLimitSpec(
      double permitsPerSecond, double burst, long warmUpNanos, long maxWaitNanos, KeySpec per) {
    this.permitsPerSecond = permitsPerSecond;
    this.burst = burst;
    this.warmUpNanos = warmUpNanos;
    this.maxWaitNanos = maxWaitNanos;
    this.per = per;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RateLimitSpec)) {
      return false;
    }
    RateLimitSpec s = (RateLimitSpec) o;
    return permitsPerSecond == s.permitsPerSecond
        && burst == s.burst
        && warmUpNanos == s.warmUpNanos
        && maxWaitNanos == s.maxWaitNanos
        && Values.eq(per, s.per);
  }

  @Override
  public int hashCode() {
    return Values.hash(permitsPerSecond, burst, warmUpNanos, maxWaitNanos, per);
  }
}
