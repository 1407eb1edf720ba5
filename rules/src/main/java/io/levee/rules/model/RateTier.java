package io.levee.rules.model;

import java.util.Collections;
import java.util.List;

/**
 * One entry of {@code rate-limit.overrides} (SPEC §5.3): the keys it applies to, as {@code *}
 * patterns, and the rate and burst each of those keys gets instead of the resource's.
 */
public final class RateTier {
  /** The patterns as written, matched whole and case-sensitively against a key. */
  public final List<String> keys;

  /** Calls per second a key of this tier may make; {@link #UNLIMITED} for {@code unlimited}. */
  public final double permitsPerSecond;

  /** Bucket capacity in tokens; meaningless when unlimited. */
  public final double burst;

  public static final double UNLIMITED = Double.POSITIVE_INFINITY;

  public RateTier(List<String> keys, double permitsPerSecond, double burst) {
    this.keys = Collections.unmodifiableList(keys);
    this.permitsPerSecond = permitsPerSecond;
    this.burst = burst;
  }

  public boolean unlimited() {
    return permitsPerSecond == UNLIMITED;
  }

  /** The rate limit of a key of this tier, other settings from {@code base}. */
  public RateLimitSpec spec(RateLimitSpec base) {
    return new RateLimitSpec(
        permitsPerSecond,
        burst,
        base.warmUpNanos,
        base.maxWaitNanos,
        base.per,
        base.cluster,
        Collections.<RateTier>emptyList());
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RateTier)) {
      return false;
    }
    RateTier t = (RateTier) o;
    return keys.equals(t.keys) && permitsPerSecond == t.permitsPerSecond && burst == t.burst;
  }

  @Override
  public int hashCode() {
    return Values.hash(keys, permitsPerSecond, burst);
  }
}
