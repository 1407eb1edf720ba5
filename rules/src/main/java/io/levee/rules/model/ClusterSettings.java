package io.levee.rules.model;

/**
 * {@code settings.cluster} (SPEC §5.3): where the shared budgets of {@code scope: cluster} live.
 */
public final class ClusterSettings {
  public static final long DEFAULT_SYNC_NANOS = 100_000_000L;

  /** What a cluster-scoped limit does while Redis cannot be reached. */
  public enum OnFailure {
    /**
     * Each instance keeps its share: the last one for a while, then the rate over the instances
     * last seen.
     */
    LOCAL,
    /** Admit what the limit would otherwise decide alone: no limit. */
    OPEN
  }

  public final RedisAddress redis;

  /** Instances with the same name share their cluster-scoped budgets. */
  public final String name;

  /** How often an instance settles with Redis. */
  public final long syncNanos;

  public final OnFailure onFailure;

  public ClusterSettings(RedisAddress redis, String name, long syncNanos, OnFailure onFailure) {
    this.redis = redis;
    this.name = name;
    this.syncNanos = syncNanos;
    this.onFailure = onFailure;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ClusterSettings)) {
      return false;
    }
    ClusterSettings c = (ClusterSettings) o;
    return redis.equals(c.redis)
        && name.equals(c.name)
        && syncNanos == c.syncNanos
        && onFailure == c.onFailure;
  }

  @Override
  public int hashCode() {
    return Values.hash(redis, name, syncNanos, onFailure);
  }

  @Override
  public String toString() {
    return name + " on " + redis;
  }
}
