package io.levee.agent.method;

import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The classes the method kind has woven and not since restored, by loader and name, each with the
 * generation of the method resources it was woven under: what a change of those resources and a
 * detach must retransform, whatever reflection says of the class now, and what the bound of {@link
 * MethodWeaving#MAX_CLASSES} counts. A loader that goes away takes its classes with it, and gives
 * back their share of the bound.
 *
 * <p>Concurrency: classes are woven on any thread; every method is synchronized, and none loads a
 * class or calls out.
 */
final class WovenClasses {
  private final Map<ClassLoader, Map<String, Integer>> byLoader =
      new WeakHashMap<ClassLoader, Map<String, Integer>>();
  private final int bound;
  private int count;

  WovenClasses(int bound) {
    this.bound = bound;
  }

  /**
   * Records {@code name} woven under {@code generation}; false, recording nothing, when it was not
   * woven before and the bound is reached.
   */
  synchronized boolean add(ClassLoader loader, String name, int generation) {
    Map<String, Integer> ofLoader = byLoader.get(loader);
    if (ofLoader != null && ofLoader.containsKey(name)) {
      ofLoader.put(name, generation);
      return true;
    }
    if (count >= bound) {
      count = recount();
      if (count >= bound) {
        return false;
      }
    }
    if (ofLoader == null) {
      ofLoader = new HashMap<String, Integer>();
      byLoader.put(loader, ofLoader);
    }
    ofLoader.put(name, generation);
    count++;
    return true;
  }

  /** {@code name} is no longer woven (a retransformation found nothing to weave in it). */
  synchronized void remove(ClassLoader loader, String name) {
    Map<String, Integer> ofLoader = byLoader.get(loader);
    if (ofLoader != null && ofLoader.remove(name) != null) {
      count--;
    }
  }

  /** The generation {@code type} was woven under, or -1 when it is not woven. */
  synchronized int generation(Class<?> type) {
    Map<String, Integer> ofLoader = byLoader.get(type.getClassLoader());
    Integer g = ofLoader == null ? null : ofLoader.get(type.getName());
    return g == null ? -1 : g.intValue();
  }

  /** Marks every class woven now as of {@code generation}. */
  synchronized void restamp(int generation) {
    for (Map<String, Integer> ofLoader : byLoader.values()) {
      for (Map.Entry<String, Integer> e : ofLoader.entrySet()) {
        e.setValue(generation);
      }
    }
  }

  /** Iterating the map drops the loaders that went away, and their classes with them. */
  private int recount() {
    int n = 0;
    for (Map<String, Integer> ofLoader : byLoader.values()) {
      n += ofLoader.size();
    }
    return n;
  }
}
