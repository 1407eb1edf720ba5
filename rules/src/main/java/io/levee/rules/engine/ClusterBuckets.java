package io.levee.rules.engine;

import io.levee.rules.model.RateLimitSpec;
import io.levee.rules.policy.ClusterBucket;
import io.levee.rules.policy.KeyedBuckets;
import io.levee.rules.policy.RateBucket;
import io.levee.rules.time.Clock;

/**
 * The cluster side of a resource's rate limit ({@code scope: cluster}): the buckets it makes, and
 * the walks over them that the settling with the cluster's store and the status need.
 */
final class ClusterBuckets {
  private ClusterBuckets() {}

  /** Makes a cluster-scoped bucket for each key (or the one of a resource without keys). */
  static KeyedBuckets.Factory factory(final Clock clock) {
    return new KeyedBuckets.Factory() {
      @Override
      public RateBucket create(RateLimitSpec spec, long now) {
        return new ClusterBucket(spec, clock, now);
      }
    };
  }

  /**
   * Shows {@code visitor} the cluster-scoped buckets of resource {@code name}: its one {@code
   * bucket}, or those of {@code keyed}.
   */
  static void forEach(
      final String name, RateBucket bucket, KeyedBuckets keyed, final ClusterVisitor visitor) {
    if (bucket != null) {
      visitor.visit(name, null, (ClusterBucket) bucket, 0);
      return;
    }
    keyed.forEach(
        new KeyedBuckets.Visitor() {
          @Override
          public void visit(String key, RateBucket b, long lastUsedNanos) {
            if (b instanceof ClusterBucket) {
              visitor.visit(name, key, (ClusterBucket) b, lastUsedNanos);
            }
          }
        });
  }

  /** The instances the cluster last counted, the most over the buckets {@code forEach} shows. */
  static int instances(String name, RateBucket bucket, KeyedBuckets keyed) {
    final int[] most = {0};
    forEach(
        name,
        bucket,
        keyed,
        new ClusterVisitor() {
          @Override
          public void visit(String resource, String key, ClusterBucket b, long lastUsedNanos) {
            most[0] = Math.max(most[0], b.instances());
          }
        });
    return most[0];
  }
}
