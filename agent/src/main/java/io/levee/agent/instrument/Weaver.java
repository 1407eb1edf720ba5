package io.levee.agent.instrument;

import io.levee.agent.log.AgentLog;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The agent's class file transformer: for each class the JVM loads or retransforms, a glance at its
 * header and ancestry (the shared {@link SuperTypes} index) rules out almost all of them; the few
 * left go through the integrations' {@link TypeRule}s, and the {@link Advice}s of the methods they
 * match are woven into the method bodies with ASM ({@link AroundMethod}): never a new field or
 * method, so that an attach can retransform loaded classes and a detach can restore them.
 *
 * <p>Why not ByteBuddy's {@code Advice}: inlining advice needs ByteBuddy's type descriptions of the
 * class, its ancestors and the advice, and some 800 of its classes loaded on the first use, which
 * was most of the agent's cost to an application's start ({@code docs/BENCHMARKS.md}, start-up).
 * The woven code here only calls static methods of the bridge, which hold the logic; one pass of
 * ASM's reader and writer (ByteBuddy's copy of it) over the class is all a weave costs.
 *
 * <p>It fails open: any error of its own leaves the class as it was, logged, never thrown.
 *
 * <h2>What a transform may and may not do</h2>
 *
 * A transform runs inside the definition of a class, on whatever thread loads it, while the loader
 * may be half-way through its own work: defining a protocol handler's connection class, reading a
 * jar, running a service loader. Anything that needs that very class fails with {@code
 * ClassCircularityError}, and the JVM caches such a failure in the caller's constant pool, so the
 * application, not the agent, gets the error for good. Catching it afterwards is too late. So:
 *
 * <ol>
 *   <li>It reads the bytes the JVM hands over ({@link ClassHeader}) and the agent's own caches
 *       ({@link SuperTypes}). It never loads, links or initialises a class: no {@code
 *       Class.forName}, no type descriptions, no reflection on the class's ancestors.
 *   <li>It reads another class file only through the defining loader when that is an application's
 *       loader, and never a JDK class file: the JDK's types are known from a table ({@link
 *       JdkTypes}), read when the agent starts, and the boot and platform loaders read their class
 *       files through the JDK's {@code jrt:} protocol handler, whose classes may be the ones being
 *       defined.
 *   <li>Beyond that read (which the application's loader does its own way), it opens no URL and
 *       starts no service loader, and it writes only to the agent's own log.
 *   <li>Of the JDK's own classes it looks only at those the table names as a target's
 *       implementation ({@link #never}): every other JDK class goes by on its name and loader
 *       alone.
 *   <li>A class loaded while it weaves (by an application loader reading a class file) is left as
 *       it is ({@link #weaving}).
 *   <li>When the answer cannot be had within these rules, the class is not woven, and the debug log
 *       says so.
 * </ol>
 *
 * {@code WeaverRulesTest} shows each rule.
 */
public final class Weaver implements ClassFileTransformer {
  /** Our own classes (including the relocated libraries) and other agents' are never touched. */
  private static final String[] NEVER = {
    "io/levee/",
    // Joined at run time: the agent jar relocates ByteBuddy, and with it every constant that spells
    // its package, which would make this entry name the relocated copy instead.
    String.join("/", "net", "bytebuddy", ""),
    "jdk/internal/reflect/",
    "sun/reflect/",
    "io/opentelemetry/javaagent/",
    "co/elastic/apm/agent/",
    "com/newrelic/",
    "datadog/trace/",
    "com/dynatrace/",
    "com/singularity/",
    "org/glowroot/",
    // JDK dynamic proxies: no class file to describe them from, and what they forward to is
    // instrumented where it is implemented.
    "com/sun/proxy/",
    "jdk/proxy"
  };

  private final Transformations transformations;
  private final AgentLog log;
  private final boolean weaveOwnClasses;

  /** The methods the method resources in force name; null in tests that have none. */
  private final RuleWeaving methods;

  /** What the woven methods of the method kind call. */
  private static final Advice METHOD_ADVICE =
      Advice.in("io.levee.bootstrap.method.MethodHooks").timed().exit("exit", "thrown");

  /**
   * Set while this thread weaves: a class loaded meanwhile (reading an ancestor's class file) is
   * left as it is.
   */
  private final ThreadLocal<Boolean> weaving = new ThreadLocal<Boolean>();

  /** The hooks the methods woven for method resources call, as {@link Transformations#hooks}. */
  public static List<String[]> methodHooks() {
    return METHOD_ADVICE.enter("enter", Advice.Pass.constant(0)).hooks();
  }

  Weaver(Transformations transformations, AgentLog log, RuleWeaving methods) {
    this(transformations, log, false, methods);
  }

  private Weaver(
      Transformations transformations, AgentLog log, boolean weaveOwnClasses, RuleWeaving methods) {
    this.transformations = transformations;
    this.log = log;
    this.weaveOwnClasses = weaveOwnClasses;
    this.methods = methods;
    // Read now, outside any transform: it may load classes.
    JdkTypes.load();
  }

  /**
   * A weaver for tests, which also weaves classes under {@code io.levee} (where the tests' own
   * target classes are); the agent never uses it.
   */
  public static Weaver forTests(List<Integration> integrations, AgentLog log) {
    Transformations t = new Transformations();
    for (Integration integration : integrations) {
      integration.addTo(t);
    }
    return forTests(t, log);
  }

  static Weaver forTests(Transformations transformations, AgentLog log) {
    return new Weaver(transformations, log, true, null);
  }

  @Override
  public byte[] transform(
      ClassLoader loader,
      String internalName,
      Class<?> classBeingRedefined,
      ProtectionDomain domain,
      byte[] bytes) {
    if (internalName == null
        || weaving.get() == Boolean.TRUE
        || (never(loader, internalName) && (methods == null || !methods.active()))) {
      return null;
    }
    weaving.set(Boolean.TRUE);
    try {
      List<TypeRule> rules = integrationRules(loader, internalName, bytes);
      Map<String, Integer> sites = methodTargets(loader, internalName, bytes);
      if (rules == null && sites == null) {
        return null;
      }
      byte[] woven = weave(bytes, rules == null ? Collections.<TypeRule>emptyList() : rules, sites);
      if (woven != null && log.enabled(AgentLog.Level.DEBUG)) {
        log.debug("instrumented " + internalName.replace('/', '.'));
      }
      return woven;
    } catch (Throwable t) {
      log.warn(
          "could not instrument " + internalName.replace('/', '.') + ", it runs unprotected", t);
      return null;
    } finally {
      weaving.set(Boolean.FALSE);
    }
  }

  /**
   * What the method resources weave in the class, or null: a failure of theirs (a loader whose
   * resources throw) leaves the class to the integrations, logged.
   */
  private Map<String, Integer> methodTargets(
      ClassLoader loader, String internalName, byte[] bytes) {
    if (methods == null) {
      return null;
    }
    try {
      return methods.targets(loader, internalName, bytes);
    } catch (Throwable t) {
      log.warn(
          "could not match "
              + internalName.replace('/', '.')
              + " against the method resources, its methods run unprotected",
          t);
      return null;
    }
  }

  /** The integrations' type rules for the class, or null when none applies. */
  private List<TypeRule> integrationRules(ClassLoader loader, String internalName, byte[] bytes) {
    if (never(loader, internalName)) {
      return null;
    }
    ClassHeader header = ClassHeader.read(bytes);
    if (header == null) {
      return null;
    }
    // APIs this class has only through the subclass the JVM is defining (Inheritance), passed on
    // to its own superclass, which the JVM loads next.
    int inherited = header.isInterface ? 0 : Inheritance.SHARED.noted(loader, internalName);
    Inheritance.SHARED.defining(loader, header, inherited);
    if (header.isInterface || !transformations.couldWeave(internalName, header)) {
      return null;
    }
    inherited |= Inheritance.SHARED.learnt(loader, internalName);
    // 0: none of the target APIs; -1: an ancestor whose class file cannot be read within the
    // rules above, so the class is left as it is unless a subclass told what it is.
    int mask = SuperTypes.SHARED.mask(internalName.replace('/', '.'), header, loader);
    if (mask < 0 && inherited == 0) {
      if (log.enabled(AgentLog.Level.DEBUG)) {
        log.debug(
            "left "
                + internalName.replace('/', '.')
                + " as it is: its ancestry cannot be read safely from "
                + (loader == null ? "the boot loader" : loader.getClass().getName()));
      }
      return null;
    }
    mask = Math.max(mask, 0) | inherited;
    if (mask == 0) {
      return null;
    }
    return transformations.forType(internalName, mask);
  }

  /** {@code bytes} with the rules' hooks woven in, or null if no method matched. */
  static byte[] weave(byte[] bytes, List<TypeRule> rules) {
    return weave(bytes, rules, null);
  }

  /**
   * {@code bytes} with the rules' hooks woven in, and the method kind's around the methods {@code
   * sites} numbers (by name and descriptor; may be null), or null if no method matched. A method an
   * integration weaves keeps that integration's advice alone.
   */
  static byte[] weave(byte[] bytes, List<TypeRule> rules, Map<String, Integer> sites) {
    ClassReader reader = new ClassReader(bytes);
    ClassWriter writer = new ClassWriter(reader, 0);
    Weaving weaving = new Weaving(writer, rules, sites);
    reader.accept(weaving, ClassReader.EXPAND_FRAMES);
    return weaving.changed ? writer.toByteArray() : null;
  }

  /** Wraps each method a rule matches; copies everything else as it is. */
  private static final class Weaving extends ClassVisitor {
    private final List<TypeRule> rules;
    private final Map<String, Integer> sites;
    private String owner;
    private boolean frames;
    boolean changed;

    Weaving(ClassVisitor next, List<TypeRule> rules, Map<String, Integer> sites) {
      super(Opcodes.ASM9, next);
      this.rules = rules;
      this.sites = sites;
    }

    @Override
    public void visit(
        int version,
        int access,
        String name,
        String signature,
        String superName,
        String[] interfaces) {
      owner = name;
      frames = (version & 0xFFFF) >= Opcodes.V1_6;
      super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
      if (next == null || name.charAt(0) == '<') {
        return next;
      }
      for (TypeRule rule : rules) {
        Advice advice = rule.adviceFor(access, name, descriptor);
        if (advice != null) {
          changed = true;
          boolean isStatic = (access & Opcodes.ACC_STATIC) != 0;
          return new AroundMethod(next, advice, owner, descriptor, frames, isStatic);
        }
      }
      Integer site = sites == null ? null : sites.get(name + descriptor);
      if (site != null) {
        changed = true;
        Advice advice = METHOD_ADVICE.enter("enter", Advice.Pass.constant(site.intValue()));
        boolean isStatic = (access & Opcodes.ACC_STATIC) != 0;
        return new AroundMethod(next, advice, owner, descriptor, frames, isStatic);
      }
      return next;
    }
  }

  /**
   * Never a target: our classes and other agents', proxies, and the JDK's own (boot and platform
   * loaders) but those {@link JdkTypes} names as being or extending a target API, of which only the
   * {@code HttpURLConnection} implementation's classes are concrete. Names and loaders only: a test
   * that needs the class file would fail for classes that have none.
   */
  private boolean never(ClassLoader loader, String internalName) {
    for (String prefix : NEVER) {
      if (internalName.startsWith(prefix)
          && !(weaveOwnClasses
              && prefix.equals("io/levee/")
              && !internalName.startsWith("io/levee/bootstrap/"))) {
        return true;
      }
    }
    if (internalName.contains("/$Proxy")) {
      return true;
    }
    return JdkTypes.isJdkLoader(loader) && !JdkTypes.inTable(internalName);
  }

  /**
   * The loaded classes this weaver changes: the short list of {@link LoadedTargets} and the
   * application superclasses that hold methods of theirs ({@link Inheritance}), matched.
   */
  List<Class<?>> loadedTargets(Instrumentation inst) {
    Set<Class<?>> targets = new LinkedHashSet<Class<?>>();
    List<Class<?>> candidates = withSuperclasses(inst, LoadedTargets.find(inst));
    // The walk reflects on loaded classes only; should it load one all the same, that class is not
    // woven from inside it.
    weaving.set(Boolean.TRUE);
    try {
      for (Class<?> type : candidates) {
        try {
          if (matches(type)) {
            targets.add(type);
          }
        } catch (Throwable t) {
          log.debug("could not describe " + type.getName() + ": " + t);
        }
      }
    } finally {
      weaving.set(Boolean.FALSE);
    }
    if (log.enabled(AgentLog.Level.DEBUG)) {
      log.debug(
          candidates.size() + " loaded classes extend a target API, " + targets.size() + " match");
    }
    if (methods != null) {
      targets.addAll(methods.loaded(inst));
    }
    return new ArrayList<Class<?>>(targets);
  }

  /**
   * {@code candidates} and the application superclasses between each and the JDK that do not reach
   * its APIs themselves, which learn them as {@link Inheritance} does at load time.
   */
  private static List<Class<?>> withSuperclasses(Instrumentation inst, List<Class<?>> candidates) {
    Set<Class<?>> all = new LinkedHashSet<Class<?>>(candidates);
    for (Class<?> type : candidates) {
      int apis = LoadedTargets.mask(type);
      for (Class<?> s = type.getSuperclass();
          s != null && !JdkTypes.isJdk(s.getName());
          s = s.getSuperclass()) {
        int missing = apis & ~LoadedTargets.mask(s);
        if (missing != 0 && inst.isModifiableClass(s)) {
          Inheritance.SHARED.learn(s, missing);
          all.add(s);
        }
      }
    }
    return new ArrayList<Class<?>>(all);
  }

  private boolean matches(Class<?> type) {
    ClassLoader loader = type.getClassLoader();
    String internalName = type.getName().replace('.', '/');
    int apis = LoadedTargets.mask(type) | Inheritance.SHARED.learnt(loader, internalName);
    return !never(loader, internalName) && transformations.forType(internalName, apis) != null;
  }

  /** See {@link Batches#retransform}; failures are logged by this weaver's log. */
  void retransform(Instrumentation inst, List<Class<?>> classes, int batch, long pauseMillis) {
    Batches.retransform(inst, classes, batch, pauseMillis, log);
  }

  /**
   * Detach: removes this transformer and retransforms the classes it changed, which gives them
   * their original bytecode back. False if it was removed before.
   */
  boolean reset(Instrumentation inst, int batch, long pauseMillis) {
    if (!inst.removeTransformer(this)) {
      return false;
    }
    retransform(inst, loadedTargets(inst), batch, pauseMillis);
    return true;
  }
}
