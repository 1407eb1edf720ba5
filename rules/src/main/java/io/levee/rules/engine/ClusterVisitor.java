package io.levee.rules.engine;

import io.levee.rules.policy.ClusterBucket;

/** Shown each cluster-scoped bucket in force, to settle it with the cluster. */
public interface ClusterVisitor {
  /**
   * {@code key}: the key of a per-key limit, or null for the resource's one bucket (or the bucket
   * of requests without a key); {@code lastUsedNanos}: on the engine's clock, when the key was last
   * used.
   */
  void visit(String resource, String key, ClusterBucket bucket, long lastUsedNanos);
}
