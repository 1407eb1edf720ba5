package io.levee.rules.model;

import java.util.Collections;
import java.util.List;

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

  /**
   * {@code scope: cluster}: every instance of {@code settings.cluster.name} shares the rate (SPEC
   * §5.3); false for {@code local}, the default.
   */
  public final boolean cluster;

  /** {@code overrides}: per-key tiers, the first whose keys match applies; empty for none. */
  public final List<RateTier> overrides;

  public RateLimitSpec(
      double permitsPerSecond, double burst, long warmUpNanos, long maxWaitNanos, KeySpec per) {
    this(
        permitsPerSecond,
        burst,
        warmUpNanos,
        maxWaitNanos,
        per,
        false,
        Collections.<RateTier>emptyList());
  }

  public RateLimitSpec(
      double permitsPerSecond,
      double burst,
      long warmUpNanos,
      long maxWaitNanos,
      KeySpec per,
      boolean cluster,
      List<RateTier> overrides) {
    this.permitsPerSecond = permitsPerSecond;
    this.burst = burst;
    this.warmUpNanos = warmUpNanos;
    this.maxWaitNanos = maxWaitNanos;
    this.per = per;
    this.cluster = cluster;
    this.overrides = Collections.unmodifiableList(overrides);
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
        && Values.eq(per, s.per)
        && cluster == s.cluster
        && overrides.equals(s.overrides);
  }

  @Override
  public int hashCode() {
    return Values.hash(permitsPerSecond, burst, warmUpNanos, maxWaitNanos, per, cluster, overrides);
  }
}
