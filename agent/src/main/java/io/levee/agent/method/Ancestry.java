package io.levee.agent.method;

import io.levee.rules.match.MethodPlan;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The super types of the classes a loader defines, read from their class files through that loader
 * while a class is being defined (its ancestors may not be loaded yet), and remembered by name per
 * loader, so each is read once. It follows the weaver's rules: never a class file of the JDK (the
 * boot and platform loaders read theirs through the JDK's {@code jrt:} handler), so a JDK type is
 * known by its name alone, and nothing is loaded.
 *
 * <p>Bounded: only the types some class pattern names keep their methods (the others, their names,
 * super types and annotations); every map is dropped when they hold {@value #MAX_TYPES} types
 * together, and a loader that goes away takes its map with it. One per set of method rules: a
 * reload that changes them starts a new one.
 */
final class Ancestry {
  private static final int MAX_TYPES = 50000;

  /** Deeper than any real hierarchy: a walk this deep is a cycle among broken class files. */
  private static final int MAX_DEPTH = 64;

  private final Map<ClassLoader, Map<String, TypeFacts>> byLoader =
      new WeakHashMap<ClassLoader, Map<String, TypeFacts>>();
  private final MethodPlan plan;
  private final AtomicInteger kept = new AtomicInteger();

  Ancestry(MethodPlan plan) {
    this.plan = plan;
  }

  /**
   * Every super type of {@code type} (a class a loader is defining), nearest first, each once;
   * {@code type} itself is not among them. A type that cannot be read ends its branch.
   */
  List<TypeFacts> ancestors(ClassLoader loader, TypeFacts type) {
    Map<String, TypeFacts> known = known(loader);
    Set<String> seen = new LinkedHashSet<String>();
    List<TypeFacts> all = new ArrayList<TypeFacts>();
    collect(loader, known, type, seen, all, 0);
    return all;
  }

  /** Keeps the facts of a class being defined, which its subclasses will ask for. */
  void remember(ClassLoader loader, TypeFacts type) {
    keep(known(loader), type);
  }

  private void keep(Map<String, TypeFacts> known, TypeFacts type) {
    if (kept.incrementAndGet() > MAX_TYPES) {
      synchronized (byLoader) {
        for (Map<String, TypeFacts> m : byLoader.values()) {
          m.clear();
        }
        kept.set(1);
      }
    }
    known.put(type.name, named(type.name) ? type : type.withoutMethods());
  }

  private boolean named(String type) {
    for (int k = 0; k < plan.size(); k++) {
      if (plan.names(k, type)) {
        return true;
      }
    }
    return false;
  }

  /** The superclasses of {@code type}, nearest first. */
  List<TypeFacts> superclasses(ClassLoader loader, TypeFacts type) {
    Map<String, TypeFacts> known = known(loader);
    List<TypeFacts> all = new ArrayList<TypeFacts>();
    TypeFacts t = type;
    for (int depth = 0; t.superName != null && depth < MAX_DEPTH; depth++) {
      t = facts(loader, known, t.superName);
      all.add(t);
    }
    return all;
  }

  private void collect(
      ClassLoader loader,
      Map<String, TypeFacts> known,
      TypeFacts type,
      Set<String> seen,
      List<TypeFacts> all,
      int depth) {
    if (depth > MAX_DEPTH) {
      return;
    }
    List<String> supers = new ArrayList<String>(type.interfaces.length + 1);
    if (type.superName != null) {
      supers.add(type.superName);
    }
    for (String i : type.interfaces) {
      supers.add(i);
    }
    for (String name : supers) {
      if (seen.add(name)) {
        TypeFacts facts = facts(loader, known, name);
        all.add(facts);
        collect(loader, known, facts, seen, all, depth + 1);
      }
    }
  }

  private TypeFacts facts(ClassLoader loader, Map<String, TypeFacts> known, String name) {
    TypeFacts facts = known.get(name);
    if (facts != null) {
      return facts;
    }
    facts = read(loader, name);
    keep(known, facts);
    return facts;
  }

  private static TypeFacts read(ClassLoader loader, String name) {
    if (loader == null || MethodWeaving.isJdk(name)) {
      return TypeFacts.leaf(name);
    }
    InputStream in = null;
    try {
      in = loader.getResourceAsStream(name.replace('.', '/') + ".class");
      if (in == null) {
        return TypeFacts.leaf(name);
      }
      TypeFacts facts = TypeFacts.read(drain(in));
      return name.equals(facts.name) ? facts : TypeFacts.leaf(name);
    } catch (Exception e) {
      return TypeFacts.leaf(name);
    } finally {
      if (in != null) {
        try {
          in.close();
        } catch (IOException ignored) {
          // Read already.
        }
      }
    }
  }

  private Map<String, TypeFacts> known(ClassLoader loader) {
    synchronized (byLoader) {
      Map<String, TypeFacts> known = byLoader.get(loader);
      if (known == null) {
        known = new ConcurrentHashMap<String, TypeFacts>();
        byLoader.put(loader, known);
      }
      return known;
    }
  }

  private static byte[] drain(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    byte[] buffer = new byte[4096];
    int n;
    while ((n = in.read(buffer)) != -1) {
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }
}
