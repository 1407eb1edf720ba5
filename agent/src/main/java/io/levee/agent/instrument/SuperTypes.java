package io.levee.agent.instrument;

import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.description.type.TypeDescription;

/**
 * Which of the target APIs a type extends or implements, remembered by type name for each class
 * loader, so the class-load path of an application stays cheap.
 *
 * <p>Why: ByteBuddy describes each super type from its class file, with a fresh type pool for every
 * class the JVM loads, so matching a servlet container's few thousand classes against "implements
 * {@code javax.servlet.Servlet}" read and parsed their common ancestors (Object, the container's base
 * classes) once for every one of them; that doubled the CPU time an application needed to serve its
 * first request. Here each ancestor is described once per loader, and a subclass stops its walk at
 * its first known ancestor. Only names and bit masks are kept, never a type description (which would
 * hold the class loader through its type pool), so a loader that goes away takes its entries with
 * it; a loader's map is dropped when it grows past {@value #MAX_TYPES} names, which bounds memory.
 *
 * <p>A name seen from one loader always means the same class, and a retransformation cannot change
 * a class's super types, so an entry never goes stale.
 *
 * <p>Concurrency: classes load on many threads; the per-loader maps are concurrent and the map of
 * loaders is guarded by itself. Two threads may describe the same type at once; both store the same
 * value.
 */
final class SuperTypes {
  /** Every API an integration matches on; a new integration that matches another adds it here. */
  static final String[] APIS = {
    "java.net.HttpURLConnection",
    "java.sql.Driver",
    "javax.sql.DataSource",
    "java.sql.Connection",
    "java.sql.Statement",
    "javax.servlet.Servlet",
    "javax.servlet.Filter",
    "jakarta.servlet.Servlet",
    "jakarta.servlet.Filter",
  };

  static final SuperTypes SHARED = new SuperTypes();

  private static final int MAX_TYPES = 50000;

  private final Map<ClassLoader, Map<String, Integer>> byLoader =
      new WeakHashMap<ClassLoader, Map<String, Integer>>();
  private final Map<String, Integer> boot = new ConcurrentHashMap<String, Integer>();

  /** The bit of {@code api} in a mask. */
  static int bit(String api) {
    for (int i = 0; i < APIS.length; i++) {
      if (APIS[i].equals(api)) {
        return 1 << i;
      }
    }
    throw new IllegalArgumentException(api + " is not in SuperTypes.APIS");
  }

  /**
   * The bits of the APIs {@code type} (loaded by {@code loader}) is or extends. Throws if a super
   * type cannot be described; nothing of that walk is remembered then.
   */
  int mask(TypeDescription type, ClassLoader loader) {
    return mask(type, known(loader));
  }

  private int mask(TypeDescription type, Map<String, Integer> known) {
    String name = type.getName();
    Integer cached = known.get(name);
    if (cached != null) {
      return cached;
    }
    int mask = own(name);
    TypeDescription.Generic superClass = type.getSuperClass();
    if (superClass != null) {
      mask |= mask(superClass.asErasure(), known);
    }
    for (TypeDescription.Generic i : type.getInterfaces()) {
      mask |= mask(i.asErasure(), known);
    }
    if (known.size() >= MAX_TYPES) {
      known.clear();
    }
    known.put(name, mask);
    return mask;
  }

  private static int own(String name) {
    for (int i = 0; i < APIS.length; i++) {
      if (APIS[i].equals(name)) {
        return 1 << i;
      }
    }
    return 0;
  }

  private Map<String, Integer> known(ClassLoader loader) {
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
}
