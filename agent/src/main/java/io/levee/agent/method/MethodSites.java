package io.levee.agent.method;

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
  private int next;

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
      table.get(known).site.retarget(resources, matches);
      return known;
    }
    int number = next++;
    AtomicReferenceArray<Info> t = table;
    if (number >= t.length()) {
      AtomicReferenceArray<Info> grown = new AtomicReferenceArray<Info>(t.length() * 2);
      for (int i = 0; i < t.length(); i++) {
        grown.set(i, t.get(i));
      }
      table = grown;
      t = grown;
    }
    t.set(
        number,
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

  /** The method numbered {@code number}, or null. */
  Info get(int number) {
    AtomicReferenceArray<Info> t = table;
    return number >= 0 && number < t.length() ? t.get(number) : null;
  }
}
