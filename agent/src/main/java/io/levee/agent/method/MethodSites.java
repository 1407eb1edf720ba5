package io.levee.agent.method;

import io.levee.bootstrap.method.SiteNumbers;
import io.levee.rules.engine.MethodSite;
import io.levee.rules.model.Match;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Every method woven for a {@code method} resource, by the number its woven code passes to the
 * bridge ({@code MethodHooks.enter(site)}): a call finds its site with one array read. A method
 * woven again (a reload, a retransformation) keeps its number and gets new candidates.
 *
 * <p>Numbers come from {@link SiteNumbers}, unique in the JVM; this agent's table starts at the
 * first it took, so a number of another agent's (before a detach) finds nothing here. The sites of
 * a class loader that went away are dropped when the table grows; their numbers stay unused.
 *
 * <p>Concurrency: numbers are handed out under the registry's lock (inside a class definition,
 * which is why the lock guards nothing but maps); the table is an atomic array, replaced by a
 * larger copy when full, so a call reads it without a lock.
 */
final class MethodSites {
  /** One woven method: its engine site and what the exception a blocked call throws needs. */
  static final class Info {
    final MethodSite site;
    final WeakReference<ClassLoader> loader;
    final String className;
    final String methodName;
    final String descriptor;

    /** Declared exceptions (binary names). */
    final String[] exceptions;

    /** The exception a blocked call throws, resolved at the first block. */
    volatile Thrower thrower;

    Info(
        MethodSite site,
        ClassLoader loader,
        String className,
        String methodName,
        String descriptor,
        String[] exceptions) {
      this.site = site;
      this.loader = new WeakReference<ClassLoader>(loader);
      this.className = className;
      this.methodName = methodName;
      this.descriptor = descriptor;
      this.exceptions = exceptions;
    }

    /** {@code com.acme.PriceClient.quote(java.lang.String)}, for messages. */
    String describe() {
      return className + "." + methodName + Descriptors.parameters(descriptor);
    }
  }

  private final Map<ClassLoader, Map<String, Integer>> numbers =
      new WeakHashMap<ClassLoader, Map<String, Integer>>();
  private volatile AtomicReferenceArray<Info> table = new AtomicReferenceArray<Info>(64);
  private volatile int base = -1;

  /** The number of the method, new or as before, now matched by {@code resources}. */
  synchronized int register(
      ClassLoader loader,
      String className,
      TypeFacts.Method method,
      String[] resources,
      Match[] matches) {
    Map<String, Integer> ofLoader = numbers.get(loader);
    if (ofLoader == null) {
      ofLoader = new HashMap<String, Integer>();
      numbers.put(loader, ofLoader);
    }
    String key = className + '.' + method.name + method.descriptor;
    Integer known = ofLoader.get(key);
    if (known != null) {
      Info info = get(known);
      if (info != null) {
        info.site.retarget(resources, matches);
        return known;
      }
    }
    int number = SiteNumbers.next();
    if (base < 0) {
      base = number;
    }
    AtomicReferenceArray<Info> t = table;
    int index = number - base;
    if (index >= t.length()) {
      t = grown(t, index);
      table = t;
    }
    t.set(
        index,
        new Info(
            new MethodSite(resources, matches),
            loader,
            className,
            method.name,
            method.descriptor,
            method.exceptions));
    ofLoader.put(key, number);
    return number;
  }

  /** A copy large enough for {@code index}, without the sites of loaders that went away. */
  private static AtomicReferenceArray<Info> grown(AtomicReferenceArray<Info> t, int index) {
    AtomicReferenceArray<Info> grown =
        new AtomicReferenceArray<Info>(Math.max(t.length() * 2, index + 1));
    for (int i = 0; i < t.length(); i++) {
      Info info = t.get(i);
      if (info != null && info.loader.get() != null) {
        grown.set(i, info);
      }
    }
    return grown;
  }

  /** The method numbered {@code number}, or null. */
  Info get(int number) {
    AtomicReferenceArray<Info> t = table;
    int index = number - base;
    return base >= 0 && index >= 0 && index < t.length() ? t.get(index) : null;
  }
}
