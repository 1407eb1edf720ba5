package io.levee.agent.method;

import io.levee.agent.instrument.JdkTypes;
import io.levee.agent.instrument.RuleWeaving;
import io.levee.agent.log.AgentLog;
import io.levee.bootstrap.Blocked;
import io.levee.rules.engine.MethodSite;
import io.levee.rules.load.RuleError;
import io.levee.rules.match.MethodPlan;
import io.levee.rules.model.Match;
import io.levee.rules.model.RuleSet;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.RejectedExecutionException;

/**
 * The {@code method} kind (SPEC §5.2): which methods the weaver wraps, decided from the method
 * resources in force, per class as it loads or is retransformed, never per call.
 *
 * <p>Unlike the other kinds, whose call sites are woven whatever the rules say, only the classes a
 * method resource names are woven: the patterns name application classes, and the set changes with
 * the rules. So a change of the method resources ({@link #change}) returns the loaded classes it
 * concerns, which the agent retransforms; later classes are woven as they load. The matching runs
 * inside class definitions under the weaver's rules ({@code Weaver}): the class file at hand, and
 * its ancestors' class files read through an application's loader ({@link Ancestry}).
 */
public final class MethodWeaving implements RuleWeaving {
  /** The most classes the method resources may weave. */
  public static final int MAX_CLASSES = 2000;

  /** Never woven for a method resource: the agent and other agents, and generated accessors. */
  private static final String[] NEVER = {
    "io/levee/",
    "net/bytebuddy/",
    "jdk/internal/",
    "sun/",
    "com/sun/",
    "io/opentelemetry/javaagent/",
    "co/elastic/apm/agent/",
    "com/newrelic/",
    "datadog/trace/",
    "com/dynatrace/",
    "com/singularity/",
    "org/glowroot/"
  };

  private final AgentLog log;
  private final MethodSites sites = new MethodSites();
  private volatile State state = new State(MethodPlan.EMPTY);

  public MethodWeaving(AgentLog log) {
    this.log = log;
  }

  /** The method resources in force and what weaving them learnt. */
  private static final class State {
    final MethodPlan plan;
    final Ancestry ancestry = new Ancestry();

    /** The classes woven for these resources, by loader; guarded by itself, like the two below. */
    final Map<ClassLoader, Set<String>> wovenClasses = new WeakHashMap<ClassLoader, Set<String>>();

    int woven;
    boolean warnedFull;

    State(MethodPlan plan) {
      this.plan = plan;
    }
  }

  static boolean never(String internalName) {
    for (String prefix : NEVER) {
      if (internalName.startsWith(prefix)) {
        // JDK proxies live under com/sun/proxy (before JDK 16): woven for an application interface.
        return !internalName.startsWith("com/sun/proxy/");
      }
    }
    return false;
  }

  static boolean isJdk(String name) {
    return !name.startsWith("com.sun.proxy.")
        && !name.startsWith("jdk.proxy")
        && JdkTypes.isJdk(name);
  }

  @Override
  public boolean active() {
    return !state.plan.isEmpty();
  }

  /** The site of the woven method numbered {@code number}, or null. */
  public MethodSite site(int number) {
    MethodSites.Info info = sites.get(number);
    return info == null ? null : info.site;
  }

  @Override
  public Map<String, Integer> targets(ClassLoader loader, String internalName, byte[] bytes) {
    State s = state;
    MethodPlan plan = s.plan;
    if (plan.isEmpty() || JdkTypes.isJdkLoader(loader) || never(internalName)) {
      return null;
    }
    TypeFacts self;
    try {
      self = TypeFacts.read(bytes);
    } catch (RuntimeException unreadable) {
      // A class file ASM cannot read is none a rule could name; the integrations judge it alone.
      return null;
    }
    s.ancestry.remember(loader, self);
    if (self.isInterface) {
      return null;
    }
    List<TypeFacts> ancestors = null;
    List<List<TypeFacts>> named = new ArrayList<List<TypeFacts>>(plan.size());
    boolean any = false;
    for (int k = 0; k < plan.size(); k++) {
      List<TypeFacts> n = new ArrayList<TypeFacts>(1);
      if (plan.names(k, self.name)) {
        n.add(self);
      }
      if (ancestors == null && n.isEmpty()) {
        ancestors = s.ancestry.ancestors(loader, self);
      }
      if (ancestors != null) {
        for (TypeFacts t : ancestors) {
          if (plan.names(k, t.name)) {
            n.add(t);
          }
        }
      }
      if (!n.isEmpty() && !annotated(s, loader, self, plan.annotated(k))) {
        n.clear();
      }
      any |= !n.isEmpty();
      named.add(n);
    }
    if (!any || !roomFor(s, loader, self.name)) {
      return null;
    }
    Map<String, Integer> targets = null;
    for (TypeFacts.Method m : self.methods) {
      if (!m.weavable()) {
        continue;
      }
      List<Integer> ks = new ArrayList<Integer>(1);
      for (int k = 0; k < plan.size(); k++) {
        if (takes(plan, k, named.get(k), self, m)) {
          ks.add(k);
        }
      }
      if (ks.isEmpty()) {
        continue;
      }
      String[] resources = new String[ks.size()];
      Match[] matches = new Match[ks.size()];
      for (int i = 0; i < resources.length; i++) {
        resources[i] = plan.name(ks.get(i));
        matches[i] = plan.match(ks.get(i));
      }
      if (targets == null) {
        targets = new HashMap<String, Integer>();
      }
      targets.put(m.name + m.descriptor, sites.register(loader, self.name, m, resources, matches));
    }
    return targets;
  }

  private static boolean takes(
      MethodPlan plan, int k, List<TypeFacts> named, TypeFacts self, TypeFacts.Method m) {
    if (named.isEmpty()) {
      return false;
    }
    if (plan.listsMethods(k)) {
      return plan.methodNamed(k, m.name);
    }
    // Without a list: the public instance methods the named type declares.
    if (!m.isPublic() || m.isStatic()) {
      return false;
    }
    for (TypeFacts t : named) {
      if (t == self || t.declaresPublic(m.name, m.descriptor)) {
        return true;
      }
    }
    return false;
  }

  private static boolean annotated(State s, ClassLoader loader, TypeFacts self, String annotation) {
    if (annotation == null) {
      return true;
    }
    if (contains(self.annotations, annotation)) {
      return true;
    }
    for (TypeFacts t : s.ancestry.superclasses(loader, self)) {
      if (contains(t.annotations, annotation)) {
        return true;
      }
    }
    return false;
  }

  private boolean roomFor(State s, ClassLoader loader, String name) {
    synchronized (s.wovenClasses) {
      Set<String> ofLoader = s.wovenClasses.get(loader);
      if (ofLoader != null && ofLoader.contains(name)) {
        return true;
      }
      if (s.woven < MAX_CLASSES) {
        if (ofLoader == null) {
          ofLoader = new HashSet<String>();
          s.wovenClasses.put(loader, ofLoader);
        }
        ofLoader.add(name);
        s.woven++;
        return true;
      }
      if (s.warnedFull) {
        return false;
      }
      s.warnedFull = true;
    }
    log.warn(
        "method resources already weave "
            + MAX_CLASSES
            + " classes, the most they may: "
            + name
            + " and later classes they name run unprotected; narrow their class patterns");
    return false;
  }

  private static boolean contains(String[] names, String name) {
    for (String n : names) {
      if (n.equals(name)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public List<Class<?>> loaded(Instrumentation inst) {
    MethodPlan plan = state.plan;
    List<Class<?>> found = new ArrayList<Class<?>>();
    if (plan.isEmpty()) {
      return found;
    }
    for (Class<?> type : loadedClasses(inst)) {
      if (takesAny(inst, plan, type, null)) {
        found.add(type);
      }
    }
    return found;
  }

  /**
   * Puts the method resources of {@code rules} in force for the weaver and returns the loaded
   * classes to retransform: those that a resource added, changed or removed names. Null when the
   * method resources are the same as before, and nothing is to be done.
   */
  @Override
  public List<Class<?>> change(Instrumentation inst, RuleSet rules) {
    MethodPlan next = MethodPlan.of(rules);
    MethodPlan before = state.plan;
    if (before.equals(next)) {
      return null;
    }
    state = new State(next);
    boolean[] gone = notIn(before, next);
    boolean[] added = notIn(next, before);
    List<Class<?>> concerned = new ArrayList<Class<?>>();
    for (Class<?> type : loadedClasses(inst)) {
      if (takesAny(inst, before, type, gone) || takesAny(inst, next, type, added)) {
        concerned.add(type);
      }
    }
    return concerned;
  }

  /** Every loaded class; none without an instrumentation (unit tests of the lifecycle). */
  static Class<?>[] loadedClasses(Instrumentation inst) {
    return inst == null ? new Class<?>[0] : inst.getAllLoadedClasses();
  }

  /** Per resource of {@code a}: whether {@code b} lacks it (the same name with the same match). */
  private static boolean[] notIn(MethodPlan a, MethodPlan b) {
    boolean[] missing = new boolean[a.size()];
    for (int k = 0; k < a.size(); k++) {
      missing[k] = true;
      for (int j = 0; j < b.size(); j++) {
        if (a.name(k).equals(b.name(j)) && a.match(k).equals(b.match(j))) {
          missing[k] = false;
        }
      }
    }
    return missing;
  }

  private static boolean takesAny(
      Instrumentation inst, MethodPlan plan, Class<?> type, boolean[] only) {
    if (plan.isEmpty()) {
      return false;
    }
    try {
      if (!LoadedMethods.candidate(type) || !inst.isModifiableClass(type)) {
        return false;
      }
      for (int k = 0; k < plan.size(); k++) {
        if ((only == null || only[k]) && LoadedMethods.matches(plan, k, type)) {
          return true;
        }
      }
    } catch (Throwable e) {
      // A class that reflection cannot describe is left as it is.
    }
    return false;
  }

  /**
   * The problems of {@code rules}' method resources with the classes loaded now, as located errors
   * of {@code file}: an {@code on-block.throw} that a woven method cannot throw, or more classes
   * named than {@link #MAX_CLASSES}. Empty when the rules can be applied.
   */
  @Override
  public List<RuleError> check(Instrumentation inst, String file, RuleSet rules) {
    return ThrowCheck.check(inst, file, rules, MethodPlan.of(rules));
  }

  /** What a call of site {@code number} that {@code blocked} refused throws. */
  public Throwable blocked(int number, Blocked blocked) {
    MethodSites.Info info = sites.get(number);
    if (info == null || blocked.exception == null) {
      return new RejectedExecutionException(blocked.message);
    }
    Thrower t = info.thrower;
    if (t == null || !t.exception.equals(blocked.exception)) {
      // Once per method and exception, however many calls are blocked at once: one warning.
      synchronized (info) {
        t = info.thrower;
        if (t == null || !t.exception.equals(blocked.exception)) {
          t = Thrower.resolve(info, blocked.exception);
          info.thrower = t;
          if (t.problem != null) {
            log.warn(blocked.resource + ": " + t.problem);
          }
        }
      }
    }
    return t.make(blocked.message);
  }
}
