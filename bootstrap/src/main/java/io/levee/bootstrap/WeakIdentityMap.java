package io.levee.bootstrap;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-object state for application objects (a statement's SQL, a connection's URL) without adding
 * fields, which a runtime attach cannot do. Keys are compared by identity and held weakly, so a
 * statement or connection the application drops is not kept alive; values must never reference
 * their key, or the entry would never go.
 *
 * <p>Concurrency: a {@link ConcurrentHashMap} of weak keys. {@code get} and {@code remove} take no
 * lock and allocate nothing: they probe with a per-thread reusable key, cleared right after. {@code
 * put} allocates a key. Writers expunge entries whose referent was collected. A read may miss a
 * concurrent write, which is harmless for caches of facts that do not change.
 */
public final class WeakIdentityMap<V> {
  private static final ThreadLocal<LookupKey> LOOKUP = new ThreadLocal<LookupKey>();

  private final ConcurrentHashMap<Object, V> map = new ConcurrentHashMap<Object, V>();
  private final ReferenceQueue<Object> collected = new ReferenceQueue<Object>();

  public V get(Object key) {
    // An empty map (no rule needs this state) answers without the per-thread probe.
    if (key == null || map.isEmpty()) {
      return null;
    }
    LookupKey probe = probe(key);
    try {
      return map.get(probe);
    } finally {
      probe.referent = null;
    }
  }

  /** Sets the value of {@code key}, replacing any; a null value removes the entry. */
  public void put(Object key, V value) {
    Faults.at(Faults.WEAK_MAP);
    if (key == null) {
      return;
    }
    expunge();
    if (value == null) {
      remove(key);
      return;
    }
    map.put(new WeakKey(key, collected), value);
  }

  public void remove(Object key) {
    if (key == null || map.isEmpty()) {
      return;
    }
    expunge();
    LookupKey probe = probe(key);
    try {
      map.remove(probe);
    } finally {
      probe.referent = null;
    }
  }

  /**
   * Maps {@code key} to {@code value} unless it is mapped already, atomically; returns the earlier
   * value, or null when this one went in. For state that must be created exactly once per object.
   */
  public V putIfAbsent(Object key, V value) {
    Faults.at(Faults.WEAK_MAP);
    return map.putIfAbsent(new WeakKey(key, collected), value);
  }

  /**
   * Removes one entry whose key was garbage collected and returns its value; null when none is
   * left. For an owner that must release what a dropped object still held (the permit of a
   * connection nobody read or disconnected). Such an owner must not call {@link #put}, {@link
   * #remove} or {@link #size}, which drop collected entries without handing their values back.
   */
  public V pollCollected() {
    Reference<?> ref;
    while ((ref = collected.poll()) != null) {
      V value = map.remove(ref);
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  /** Whether nothing is mapped: a read without a probe, for hooks that run on every object. */
  public boolean isEmpty() {
    return map.isEmpty();
  }

  /** Live entries plus entries collected but not yet expunged. */
  public int size() {
    expunge();
    return map.size();
  }

  private static LookupKey probe(Object key) {
    LookupKey probe = LOOKUP.get();
    if (probe == null) {
      probe = new LookupKey();
      LOOKUP.set(probe);
    }
    probe.referent = key;
    probe.hash = System.identityHashCode(key);
    return probe;
  }

  private void expunge() {
    Reference<?> ref;
    while ((ref = collected.poll()) != null) {
      map.remove(ref);
    }
  }

  /** The stored key; equal to itself and to any key or probe for the same live referent. */
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
    public boolean equals(Object other) {
      if (other == this) {
        return true;
      }
      Object referent = get();
      if (referent == null) {
        return false;
      }
      if (other instanceof LookupKey) {
        return referent == ((LookupKey) other).referent;
      }
      // A put of a key already present must find the stored entry and replace its value.
      return other instanceof WeakKey && referent == ((WeakKey) other).get();
    }
  }

  /** A reusable probe; the map calls {@code probe.equals(storedKey)}, and either order works. */
  private static final class LookupKey {
    Object referent;
    int hash;

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object other) {
      if (other instanceof WeakKey) {
        Object stored = ((WeakKey) other).get();
        return stored != null && stored == referent;
      }
      return other == this;
    }
  }
}
