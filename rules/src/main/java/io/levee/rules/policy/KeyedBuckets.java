package io.levee.rules.policy;

import io.levee.rules.match.KeyPatterns;
import io.levee.rules.model.RateLimitSpec;
import io.levee.rules.model.RateTier;
import io.levee.rules.time.Clock;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One bucket per key ({@code rate-limit.per}, SPEC §2), at most {@code maxKeys} of them, least
 * recently used first out. A key's bucket follows the first {@code overrides} tier whose keys match
 * it (SPEC §5.3), matched once when the bucket is made; a key of an {@code unlimited} tier gets
 * {@link RateBucket#UNLIMITED}. The buckets themselves come from a {@link Factory}: token buckets
 * for a local limit, shares of the cluster's for a cluster-scoped one.
 *
 * <p>How: a {@link ConcurrentHashMap} from key to an entry holding the bucket and the last time it
 * was used (to the millisecond). A lookup of a known key is a map read plus at most one stamp
 * write, allocating nothing. When a new key finds the map full, one thread scans it once and evicts
 * the least recently used eighth (at least one entry) by their stamps, so a flood of new keys costs
 * one scan per {@code maxKeys/8} insertions rather than one per insertion. The order is exact among
 * what the scan saw; entries touched during the scan may be evicted anyway, which only costs that
 * key a fresh, full bucket, and if the keys the scan picked were all touched meanwhile, arbitrary
 * entries go instead until the map has room.
 *
 * <p>A key's bucket starts full when the key is first seen or seen again after eviction: eviction
 * forgets, it never blocks. A null key shares one bucket, outside the cap.
 *
 * <p>Concurrency: the map is thread-safe; {@code lastUsed} stamps are plain volatile writes, last
 * writer wins. Eviction is serialised by {@code evicting} so concurrent new keys do not evict a
 * batch each; while one thread evicts, others insert, so the size may pass {@code maxKeys} by the
 * number of threads inserting at that instant.
 */
public final class KeyedBuckets {
  private static final long STAMP_GRANULARITY_NANOS = 1_000_000L;

  /** Makes the bucket of a key, full at {@code now}. */
  public interface Factory {
    RateBucket create(RateLimitSpec spec, long now);
  }

  /** What {@link #forEach} shows of each key. */
  public interface Visitor {
    /** {@code key} is null for the bucket of requests that have no key. */
    void visit(String key, RateBucket bucket, long lastUsedNanos);
  }

  private final RateLimitSpec spec;
  private final int maxKeys;
  private final Clock clock;
  private final Factory factory;
  private final KeyPatterns[] tierKeys;
  private final RateLimitSpec[] tierSpecs;
  private final RateBucket shared;
  private final ConcurrentHashMap<String, Entry> buckets = new ConcurrentHashMap<>();
  private final AtomicLong evictions = new AtomicLong();
  private final Object evicting = new Object();

  /** Token buckets, local to this JVM. */
  public KeyedBuckets(RateLimitSpec spec, int maxKeys, Clock clock) {
    this(spec, maxKeys, clock, tokenBuckets(clock));
  }

  public KeyedBuckets(RateLimitSpec spec, int maxKeys, Clock clock, Factory factory) {
    this.spec = spec;
    this.maxKeys = Math.max(1, maxKeys);
    this.clock = clock;
    this.factory = factory;
    int tiers = spec.overrides.size();
    this.tierKeys = new KeyPatterns[tiers];
    this.tierSpecs = new RateLimitSpec[tiers];
    for (int i = 0; i < tiers; i++) {
      RateTier tier = spec.overrides.get(i);
      tierKeys[i] = new KeyPatterns(tier.keys);
      tierSpecs[i] = tier.unlimited() ? null : tier.spec(spec);
    }
    this.shared = factory.create(spec, clock.nanoTime());
  }

  /** A factory of {@link TokenBucket}s on {@code clock}. */
  public static Factory tokenBuckets(final Clock clock) {
    return new Factory() {
      @Override
      public RateBucket create(RateLimitSpec spec, long now) {
        return new TokenBucket(spec, clock, now);
      }
    };
  }

  /** {@link #bucket(String, long)} at the clock's current instant. */
  public RateBucket bucket(String key) {
    return bucket(key, clock.nanoTime());
  }

  /**
   * The bucket of {@code key}, created full if the key is new; the shared bucket for null. {@code
   * now}, on this clock, stamps the key's last use.
   */
  public RateBucket bucket(String key, long now) {
    if (key == null) {
      return shared;
    }
    Entry entry = buckets.get(key);
    if (entry != null) {
      // Skipping rewrites of a fresh stamp keeps a hot key's cache line shared between cores.
      if (now - entry.lastUsed >= STAMP_GRANULARITY_NANOS) {
        entry.lastUsed = now;
      }
      return entry.bucket;
    }
    if (buckets.size() >= maxKeys) {
      evictOldest();
    }
    Entry fresh = new Entry(create(key, now), now);
    Entry raced = buckets.putIfAbsent(key, fresh);
    return raced == null ? fresh.bucket : raced.bucket;
  }

  /** The bucket of a new key: its tier's, else the resource's. */
  private RateBucket create(String key, long now) {
    for (int i = 0; i < tierKeys.length; i++) {
      if (tierKeys[i].matches(key)) {
        return tierSpecs[i] == null ? RateBucket.UNLIMITED : factory.create(tierSpecs[i], now);
      }
    }
    return factory.create(spec, now);
  }

  /** Shows {@code visitor} the bucket of every key held now, and the one of no key. */
  public void forEach(Visitor visitor) {
    visitor.visit(null, shared, clock.nanoTime());
    for (Map.Entry<String, Entry> e : buckets.entrySet()) {
      visitor.visit(e.getKey(), e.getValue().bucket, e.getValue().lastUsed);
    }
  }

  /** Keys evicted so far (the {@code levee.keys.evicted} counter). */
  public long evictions() {
    return evictions.get();
  }

  public int size() {
    return buckets.size();
  }

  private void evictOldest() {
    synchronized (evicting) {
      int size = buckets.size();
      if (size < maxKeys) {
        return;
      }
      long[] stamps = new long[size];
      int n = 0;
      for (Entry e : buckets.values()) {
        if (n == stamps.length) {
          break;
        }
        stamps[n++] = e.lastUsed;
      }
      Arrays.sort(stamps, 0, n);
      int batch = Math.max(1, maxKeys / 8);
      long cutoff = stamps[Math.min(batch, n) - 1];
      int removed = 0;
      for (Iterator<Map.Entry<String, Entry>> it = buckets.entrySet().iterator();
          it.hasNext() && removed < batch; ) {
        Map.Entry<String, Entry> e = it.next();
        if (e.getValue().lastUsed <= cutoff && buckets.remove(e.getKey(), e.getValue())) {
          removed++;
        }
      }
      // Keys touched since the snapshot were skipped; if that left the map full, take any entries
      // until it has room, so the bound holds whatever the other threads did meanwhile.
      for (Iterator<String> it = buckets.keySet().iterator();
          it.hasNext() && buckets.size() >= maxKeys; ) {
        if (buckets.remove(it.next()) != null) {
          removed++;
        }
      }
      evictions.addAndGet(removed);
    }
  }

  private static final class Entry {
    final RateBucket bucket;
    volatile long lastUsed;

    Entry(RateBucket bucket, long lastUsed) {
      this.bucket = bucket;
      this.lastUsed = lastUsed;
    }
  }
}
