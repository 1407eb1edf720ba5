package io.levee.bootstrap;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A concurrent map from application objects (a connection, a statement) to Levee's state about them,
 * compared by identity and holding its keys weakly, so it never keeps an application object alive.
 * This replaces added fields, which are impossible in classes already loaded at a runtime attach.
 *
 * <p>A value must never reference its key, or the key can never be collected. When a key is
 * collected its entry stays until {@link #pollCollected()} hands its value back, so the owner can
 * release what an abandoned object still held (a permit of a connection nobody read).
 *
 * <p>Concurrency: a {@link ConcurrentHashMap} does the work; reads take no lock and allocate nothing
 * (each thread reuses one lookup key, cleared after use). Writes lock one bin of the map.
 */
public final class WeakIdentityMap<V> {
  private final ConcurrentHashMap<Object, V> map = new ConcurrentHashMap<Object, V>();
  private final ReferenceQueue<Object> collected = new ReferenceQueue<Object>();
  private final ThreadLocal<LookupKey> lookup = new ThreadLocal<LookupKey>();

  public V get(Object key) {
    LookupKey k = lookupKey(key);
    try {
      return map.get(k);
    } finally {
      k.referent = null;
    }
  }

  /** Maps {@code key} to {@code value} unless it is mapped already; returns the earlier value or null. */
  public V putIfAbsent(Object key, V value) {
    return map.putIfAbsent(new WeakKey(key, collected), value);
  }

  public V remove(Object key) {
    LookupKey k = lookupKey(key);
    try {
      return map.remove(k);
    } finally {
      k.referent = null;
    }
  }

  /** Removes one entry whose key was garbage collected and returns its value; null when none is left. */
  public V pollCollected() {
    Object stale;
    while ((stale = collected.poll()) != null) {
      V value = map.remove(stale);
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  public int size() {
    return map.size();
  }

  private LookupKey lookupKey(Object key) {
    LookupKey k = lookup.get();
    if (k == null) {
      k = new LookupKey();
      lookup.set(k);
    }
    k.referent = key;
    k.hash = System.identityHashCode(key);
    return k;
  }

  private static final class WeakKey extends WeakReference<Object> {
    private final int hash;

    WeakKey(Object referent, ReferenceQueue<Object> queue) {
      super(referent, queue);
      this.hash = System.identityHashCode(referent);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      Object referent = get();
      return referent != null && o instanceof WeakKey && ((WeakKey) o).get() == referent;
    }
  }

  /** What a lookup compares with: equal to the {@link WeakKey} of the same object. */
  private static final class LookupKey {
    Object referent;
    int hash;

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof WeakKey && ((WeakKey) o).get() == referent;
    }
  }
}
