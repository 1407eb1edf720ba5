package io.levee.agent.instrument;

import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bit masks of {@link SuperTypes#APIS} by type name, one map per class loader, so that a loader
 * that goes away takes its entries with it; a map is emptied when it grows past its bound, which
 * bounds memory (the entries are found again as they are needed).
 *
 * <p>Concurrency: the per-loader maps are concurrent; the map of loaders is guarded by itself.
 */
final class MasksByLoader {
  private final int maxTypes;
  private final Map<ClassLoader, Map<String, Integer>> byLoader =
      new WeakHashMap<ClassLoader, Map<String, Integer>>();
  private final Map<String, Integer> boot = new ConcurrentHashMap<String, Integer>();

  MasksByLoader(int maxTypes) {
    this.maxTypes = maxTypes;
  }

  /** The map of {@code loader} (null: the boot loader). */
  Map<String, Integer> of(ClassLoader loader) {
    if (loader == null) {
      return boot;
    }
    synchronized (byLoader) {
      Map<String, Integer> known = byLoader.get(loader);
      if (known == null) {
        known = new ConcurrentHashMap<String, Integer>();
        byLoader.put(loader, known);
      }
      return known;
    }
  }

  /** Puts {@code mask} for {@code name} in {@code known}, emptying it first when it is full. */
  void put(Map<String, Integer> known, String name, int mask) {
    if (known.size() >= maxTypes) {
      known.clear();
    }
    known.put(name, mask);
  }
}
