package io.levee.agent.instrument;

import io.levee.agent.AgentLog;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.TypeResolutionStrategy;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.dynamic.scaffold.inline.MethodNameTransformer;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.JavaModule;

/**
 * The agent's class file transformer: for each class the JVM loads or retransforms, a glance that
 * rules out almost all of them ({@link TargetFilter}), then a ByteBuddy description of the few left
 * (from the class file only, so matching never loads or links an application class), the
 * {@link Transformations} whose matchers match, and their advice woven into the method bodies
 * (never a new field or method, so that an attach can retransform loaded classes and a detach can
 * restore them).
 *
 * <p>It does what ByteBuddy's {@code AgentBuilder} transformer does for the agent's configuration
 * (a frozen redefinition, class-file descriptions, no initializers) without it: on Java 9+ that
 * transformer's class is generated at run time, the first time it is used, and generating it
 * loaded about 480 classes and took some 300 ms of every start of an application. Here the JVM
 * calls the Java 8 {@code transform}, on every version; the module is not needed, because the one
 * module edge the advice needs (java.base reading the bridge) is added by {@link ReadEdge}.
 *
 * <p>It fails open: any error of its own leaves the class as it was, logged, never thrown.
 */
public final class Weaver implements ClassFileTransformer {
  /** Our own classes (including the relocated libraries) and other agents' are never touched. */
  private static final String[] NEVER = {
    "io/levee/",
    "net/bytebuddy/",
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

  private static final String JDK_TARGETS = AgentInstaller.JDK_TARGET_PACKAGE.replace('.', '/');

  private static final MethodNameTransformer NO_RENAMING = MethodNameTransformer.Suffixing.withRandomSuffix();

  private final Transformations transformations;
  private final AgentLog log;
  /**
   * Advice changes declared methods only, so the method graph of the declared methods is all a
   * weave needs: the default compiler describes every super type and interface of the class from
   * its class file first (a third of the time of weaving a JDBC connection or statement class).
   */
  private final ByteBuddy byteBuddy =
      new ByteBuddy()
          .with(TypeValidation.DISABLED)
          .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE)
          .with(Implementation.Context.Disabled.Factory.INSTANCE);
  private final TargetFilter filter = new TargetFilter();
  private final ClassLoader platform;
  /** Set while this thread weaves: a class loaded meanwhile is left as it is, as ByteBuddy does. */
  private final ThreadLocal<Boolean> weaving = new ThreadLocal<Boolean>();

  Weaver(Transformations transformations, AgentLog log) {
    this.transformations = transformations;
    this.log = log;
    ClassLoader system = ClassLoader.getSystemClassLoader();
    this.platform = system == null ? null : system.getParent();
  }

  @Override
  public byte[] transform(
      ClassLoader loader,
      String internalName,
      Class<?> classBeingRedefined,
      ProtectionDomain domain,
      byte[] bytes) {
    if (internalName == null || weaving.get() == Boolean.TRUE || never(loader, internalName)) {
      return null;
    }
    if (classBeingRedefined == null && filter.cannotBeTarget(loader, internalName, bytes)) {
      return null;
    }
    String name = internalName.replace('/', '.');
    weaving.set(Boolean.TRUE);
    try {
      return weave(loader, name, classBeingRedefined, domain, bytes);
    } catch (Throwable t) {
      failed(name, t);
      return null;
    } finally {
      weaving.set(Boolean.FALSE);
    }
  }

  private byte[] weave(
      ClassLoader loader,
      String name,
      Class<?> classBeingRedefined,
      ProtectionDomain domain,
      byte[] bytes) {
    ClassFileLocator locator =
        new ClassFileLocator.Compound(
            ClassFileLocator.Simple.of(name, bytes), ClassFileLocator.ForClassLoader.of(loader));
    TypePool pool = AgentBuilder.PoolStrategy.Default.FAST.typePool(locator, loader, name);
    TypeDescription type = pool.describe(name).resolve();
    DynamicType.Builder<?> builder = null;
    for (int i = 0; i < transformations.size(); i++) {
      if (transformations
          .matcher(i)
          .matches(type, loader, JavaModule.UNSUPPORTED, classBeingRedefined, domain)) {
        if (builder == null) {
          builder =
              AgentBuilder.TypeStrategy.Default.REDEFINE_FROZEN.builder(
                  type, byteBuddy, locator, NO_RENAMING, loader, JavaModule.UNSUPPORTED, domain);
        }
        builder =
            transformations.transformer(i).transform(builder, type, loader, JavaModule.UNSUPPORTED, domain);
      }
    }
    if (builder == null) {
      return null;
    }
    byte[] woven = builder.make(TypeResolutionStrategy.Disabled.INSTANCE, pool).getBytes();
    if (log.enabled(AgentLog.Level.DEBUG)) {
      log.debug("instrumented " + name);
    }
    return woven;
  }

  private void failed(String name, Throwable error) {
    if (error instanceof TypePool.Resolution.NoSuchTypeException) {
      // A class without a class file (generated at run time) cannot be a target anyway.
      log.debug("could not describe " + name + ": " + error.getMessage());
      return;
    }
    log.warn("could not instrument " + name + ", it runs unprotected", error);
  }

  /**
   * Never a target: our classes and other agents', proxies, and the JDK's own (boot and platform
   * loaders) outside the {@code HttpURLConnection} implementation. Names and loaders only: a test
   * that needs the class file would fail for classes that have none.
   */
  private boolean never(ClassLoader loader, String internalName) {
    for (String prefix : NEVER) {
      if (internalName.startsWith(prefix)) {
        return true;
      }
    }
    if (internalName.contains("/$Proxy")) {
      return true;
    }
    return (loader == null || loader == platform) && !internalName.startsWith(JDK_TARGETS);
  }

  /** The loaded classes this weaver changes: the short list of {@link LoadedTargets}, matched. */
  List<Class<?>> loadedTargets(Instrumentation inst) {
    List<Class<?>> targets = new ArrayList<Class<?>>();
    List<Class<?>> candidates = LoadedTargets.find(inst);
    // Describing a JDK class reads its class file through a jrt: connection, which may load a class
    // of the HttpURLConnection implementation: that load must not be woven from inside this walk.
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
      log.debug(candidates.size() + " loaded classes extend a target API, " + targets.size() + " match");
    }
    return targets;
  }

  private boolean matches(Class<?> type) {
    ClassLoader loader = type.getClassLoader();
    String name = type.getName();
    if (never(loader, name.replace('.', '/'))) {
      return false;
    }
    TypePool pool =
        AgentBuilder.PoolStrategy.Default.FAST.typePool(
            ClassFileLocator.ForClassLoader.of(loader), loader, name);
    TypeDescription description = pool.describe(name).resolve();
    for (AgentBuilder.RawMatcher matcher : transformations.matchers()) {
      if (matcher.matches(
          description, loader, JavaModule.UNSUPPORTED, type, type.getProtectionDomain())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Retransforms {@code classes} {@code batch} at a time with {@code pauseMillis} between batches
   * (each retransformation stops the world). A batch that fails is retried class by class, so one
   * class that cannot be retransformed does not keep the others as they were.
   */
  void retransform(Instrumentation inst, List<Class<?>> classes, int batch, long pauseMillis) {
    for (int from = 0; from < classes.size(); from += batch) {
      if (from > 0 && pauseMillis > 0) {
        pause(pauseMillis);
      }
      List<Class<?>> part = classes.subList(from, Math.min(classes.size(), from + batch));
      try {
        inst.retransformClasses(part.toArray(new Class<?>[0]));
      } catch (Throwable batchError) {
        for (Class<?> type : part) {
          try {
            inst.retransformClasses(type);
          } catch (Throwable e) {
            log.warn("could not retransform " + type.getName(), e);
          }
        }
      }
    }
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

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
