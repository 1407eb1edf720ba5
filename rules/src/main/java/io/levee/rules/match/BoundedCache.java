package io.levee.rules.match;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cache of match results that never grows past a number of entries and a total weight (the
 * characters of its keys, for SQL). When an insert would go past either bound the cache is emptied
 * and starts again: results are pure functions of the key, so this only costs recomputation, and it
 * lets the call sites that are hot now come back at once, where "stop inserting" would keep the
 * first few thousand keys ever seen forever. A hit is one {@link ConcurrentHashMap#get}: no lock,
 * no allocation.
 *
 * <p>Concurrency: any thread may read or insert. The counters are maintained beside the map, not
 * with it, so an insert racing with a clear may go uncounted; the map can then exceed the bound by
 * at most the number of threads inserting during that clear, and the next clear removes them.
 */
final class BoundedCache<K, V> {
  private final ConcurrentHashMap<K, V> map = new ConcurrentHashMap<K, V>();
  private final int maxEntries;
  private final long maxWeight;
  private final AtomicInteger entries = new AtomicInteger();
  private final AtomicLong weight = new AtomicLong();

  BoundedCache(int maxEntries, long maxWeight) {
    this.maxEntries = maxEntries;
    this.maxWeight = maxWeight;
  }

  /** The cached value, or null; the key must not be null. */
  V get(K key) {
    return map.get(key);
  }

  /** Caches a value (replacing an older one for the same key) of the given weight. */
  void put(K key, V value, int keyWeight) {
    if (entries.get() >= maxEntries || weight.get() + keyWeight > maxWeight) {
      map.clear();
      entries.set(0);
      weight.set(0);
    }
    if (map.put(key, value) == null) {
      entries.incrementAndGet();
      weight.addAndGet(keyWeight);
    }
  }

  int size() {
    return map.size();
  }
}
