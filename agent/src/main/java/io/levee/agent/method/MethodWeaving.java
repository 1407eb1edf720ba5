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
import java.util.List;
import java.util.Map;
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
    // Joined at run time: the agent jar relocates ByteBuddy, and with it every constant that spells
    // its package, which would make this entry name the relocated copy instead.
    String.join("/", "net", "bytebuddy", ""),
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
  private final WovenClasses woven = new WovenClasses(MAX_CLASSES);
  private volatile State state = new State(MethodPlan.EMPTY, 0);
  private volatile boolean warnedFull;

  /** What the last change added: the classes to look for again after its retransformation. */
  private volatile boolean[] lastAdded = new boolean[0];

  public MethodWeaving(AgentLog log) {
    this.log = log;
  }

  /** The method resources in force, the generation they are, and what weaving them learnt. */
  private static final class State {
    final MethodPlan plan;
    final int generation;
    final Ancestry ancestry;

    State(MethodPlan plan, int generation) {
      this.plan = plan;
      this.generation = generation;
      this.ancestry = new Ancestry(plan);
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
    ClassMatch match = self.isInterface ? null : ClassMatch.of(plan, s.ancestry, loader, self);
    List<TypeFacts.Method> methods = new ArrayList<TypeFacts.Method>();
    List<List<Integer>> resources = new ArrayList<List<Integer>>();
    if (match != null) {
      for (TypeFacts.Method m : self.methods) {
        List<Integer> ks = match.resourcesOf(m);
        if (!ks.isEmpty()) {
          methods.add(m);
          resources.add(ks);
        }
      }
    }
    if (methods.isEmpty()) {
      // Restored, if a retransformation found nothing left to weave in it.
      woven.remove(loader, self.name);
      return null;
    }
    if (!woven.add(loader, self.name, s.generation)) {
      full(self.name);
      return null;
    }
    Map<String, Integer> targets = new HashMap<String, Integer>();
    for (int i = 0; i < methods.size(); i++) {
      TypeFacts.Method m = methods.get(i);
      List<Integer> ks = resources.get(i);
      String[] names = new String[ks.size()];
      Match[] matches = new Match[ks.size()];
      for (int j = 0; j < names.length; j++) {
        names[j] = plan.name(ks.get(j));
        matches[j] = plan.match(ks.get(j));
      }
      targets.put(m.name + m.descriptor, sites.register(loader, self.name, m, names, matches));
    }
    return targets;
  }

  private void full(String name) {
    if (warnedFull) {
      return;
    }
    warnedFull = true;
    log.warn(
        "method resources already weave "
            + MAX_CLASSES
            + " classes, the most they may: "
            + name
            + " and later classes they name run unprotected; narrow their class patterns");
  }

  /**
   * The loaded classes woven for method resources, as recorded when they were woven, and those the
   * resources in force name (should one have escaped the record): what a detach restores.
   */
  @Override
  public List<Class<?>> loaded(Instrumentation inst) {
    MethodPlan plan = state.plan;
    List<Class<?>> found = new ArrayList<Class<?>>();
    for (Class<?> type : loadedClasses(inst)) {
      if (woven.generation(type) >= 0 || takesAny(inst, plan, type, null)) {
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
    State before = state;
    if (before.plan.equals(next)) {
      return null;
    }
    State now = new State(next, before.generation + 1);
    state = now;
    // A class woven before the swap is of the new generation unless it is retransformed below; one
    // whose weave began under the old resources and ends after this is found by straggling().
    woven.restamp(now.generation);
    boolean[] gone = notIn(before.plan, next);
    boolean[] added = notIn(next, before.plan);
    lastAdded = added;
    List<Class<?>> concerned = new ArrayList<Class<?>>();
    for (Class<?> type : loadedClasses(inst)) {
      boolean isWoven = woven.generation(type) >= 0;
      if (takesAny(inst, before.plan, type, gone)
          || takesAny(inst, next, type, added)
          || (isWoven && !takesAny(inst, next, type, null))) {
        concerned.add(type);
      }
    }
    return concerned;
  }

  /**
   * After the retransformation of what {@link #change} returned: the classes whose weave began
   * under the method resources before it and ended after its look at the loaded classes (woven
   * under an older generation, or not at all though an added resource names them). Empty almost
   * always.
   */
  @Override
  public List<Class<?>> straggling(Instrumentation inst, List<Class<?>> done) {
    State s = state;
    boolean[] added = lastAdded;
    List<Class<?>> late = new ArrayList<Class<?>>();
    java.util.Set<Class<?>> seen = new java.util.HashSet<Class<?>>(done);
    for (Class<?> type : loadedClasses(inst)) {
      if (seen.contains(type)) {
        continue;
      }
      int generation = woven.generation(type);
      if ((generation >= 0 && generation < s.generation)
          || (generation < 0
              && added.length == s.plan.size()
              && takesAny(inst, s.plan, type, added))) {
        late.add(type);
      }
    }
    return late;
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
    return check(inst, loadedClasses(inst), file, rules);
  }

  /**
   * {@link #check} against {@code loaded}: at JVM start, the classes loaded when the agent began,
   * so that whether a file is accepted does not depend on which application classes happened to
   * load while it was being read. A class that loads later is checked at its first blocked call.
   */
  public List<RuleError> check(
      Instrumentation inst, Class<?>[] loaded, String file, RuleSet rules) {
    return ThrowCheck.check(inst, loaded, file, rules, MethodPlan.of(rules));
  }

  /** What a call of site {@code number} that {@code blocked} refused throws. */
  public Throwable blocked(int number, Blocked blocked) {
    MethodSites.Info info = sites.get(number);
    if (info == null || blocked.exception == null) {
      return new RejectedExecutionException(blocked.message);
    }
    Thrower t = info.thrower;
    if (t == null || !t.exception.equals(blocked.exception) || t.stale()) {
      // Once per method and exception, however many calls are blocked at once: one warning.
      synchronized (info) {
        t = info.thrower;
        boolean first = t == null || !t.exception.equals(blocked.exception);
        if (first || t.stale()) {
          t = Thrower.resolve(info, blocked.exception);
          info.thrower = t;
          if (first && t.problem != null) {
            log.warn(blocked.resource + ": " + t.problem);
          }
        }
      }
    }
    return t.make(blocked.message);
  }
}
