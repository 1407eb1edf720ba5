package io.levee.agent.instrument;

import static net.bytebuddy.matcher.ElementMatchers.isBootstrapClassLoader;
import static net.bytebuddy.matcher.ElementMatchers.isExtensionClassLoader;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.not;

import io.levee.agent.AgentLog;
import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.Nexus;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Installs every integration on one {@link AgentBuilder}, so that one
 * {@link ResettableClassFileTransformer} undoes them all at a detach.
 *
 * <p>The recipe, and why: retransformation without class format changes, because a runtime attach
 * can only change method bodies of loaded classes (so state lives in weak maps, never fields); types
 * described from class files only ({@code POOL_ONLY}), so matching never loads or links an
 * application class early; fail-safe matchers and a logging listener, so a class we cannot handle
 * stays as it was; a filter in front of ByteBuddy ({@link TargetFilter}) that waves through the
 * classes that cannot be targets without describing them; and a reads edge from java.base (for
 * {@code HttpURLConnection}) to the boot loader's unnamed module, where the bridge lives, without
 * which advice inlined into java.base could not call it on Java 9+ ({@link ReadEdge}).
 */
public final class AgentInstaller {
  /** Our own classes (including the relocated libraries) and other agents' are never touched. */
  private static final ElementMatcher.Junction<TypeDescription> NEVER =
      nameStartsWith("io.levee.")
          .or(nameStartsWith("net.bytebuddy."))
          .or(nameStartsWith("jdk.internal.reflect."))
          .or(nameStartsWith("sun.reflect."))
          .or(nameStartsWith("io.opentelemetry.javaagent."))
          .or(nameStartsWith("co.elastic.apm.agent."))
          .or(nameStartsWith("com.newrelic."))
          .or(nameStartsWith("datadog.trace."))
          .or(nameStartsWith("com.dynatrace."))
          .or(nameStartsWith("com.singularity."))
          .or(nameStartsWith("org.glowroot."))
          // JDK dynamic proxies: no class file to describe them from, and what they forward to is
          // instrumented where it is implemented.
          .or(nameStartsWith("com.sun.proxy."))
          .or(nameStartsWith("jdk.proxy"))
          .or(nameContains(".$Proxy"));

  /**
   * Of the JDK's own classes (boot and platform loaders) only the {@code HttpURLConnection}
   * implementation is a target; an integration that needs another one adds its prefix here. Every
   * ignore test is on names and loaders: a test that needs the class file would fail for classes that
   * have none (dynamic proxies, classes injected by other agents).
   */
  static final String JDK_TARGET_PACKAGE = "sun.net.www.protocol.";

  private static final ElementMatcher.Junction<TypeDescription> JDK_TARGETS =
      nameStartsWith(JDK_TARGET_PACKAGE);

  /** Classes retransformed at once after an attach or at a detach, and the pause in between. */
  private static final int BATCH = 100;

  private static final long PAUSE_MILLIS = 50;

  private AgentInstaller() {}

  public static ResettableClassFileTransformer install(
      Instrumentation inst, List<Integration> integrations, AgentLog log) {
    return install(inst, integrations, log, false);
  }

  /**
   * As {@link #install(Instrumentation, List, AgentLog)}; after a runtime attach ({@code attached})
   * the classes already loaded are retransformed in batches with a pause between them, because each
   * retransformation stops the world and a busy application must not notice one long stop.
   */
  public static ResettableClassFileTransformer install(
      Instrumentation inst, List<Integration> integrations, AgentLog log, boolean attached) {
    AgentBuilder builder = builder(inst, log, attached);
    for (Integration integration : integrations) {
      try {
        builder = integration.extend(builder);
        log.debug("integration " + integration.name() + " ready");
      } catch (Throwable t) {
        log.warn("integration " + integration.name() + " left out", t);
      }
    }
    ReadEdge.fromJavaBase(inst, log);
    return builder.installOn(inst);
  }

  /**
   * Detach: removes the transformer and retransforms every class it changed back to its original
   * bytecode, in the same batches as an attach. False if it was removed before.
   */
  public static boolean reset(Instrumentation inst, ResettableClassFileTransformer transformer) {
    return transformer.reset(
        inst,
        AgentBuilder.RedefinitionStrategy.RETRANSFORMATION,
        LoadedTargets.INSTANCE,
        AgentBuilder.RedefinitionStrategy.BatchAllocator.ForFixedSize.ofSize(BATCH),
        AgentBuilder.RedefinitionStrategy.Listener.Pausing.of(PAUSE_MILLIS, TimeUnit.MILLISECONDS));
  }

  static AgentBuilder builder(Instrumentation inst, AgentLog log, boolean attached) {
    // Our transformations add no initializers, so ByteBuddy's Nexus (a class it injects into the
    // system loader through Unsafe, which JDK 24+ warns about) is never needed. The property name is
    // relocated with ByteBuddy, so an application's own ByteBuddy is not affected.
    if (System.getProperty(Nexus.PROPERTY) == null) {
      System.setProperty(Nexus.PROPERTY, "true");
    }
    AgentBuilder.RedefinitionListenable retransforming =
        new AgentBuilder.Default(new ByteBuddy().with(TypeValidation.DISABLED))
            .disableClassFormatChanges()
            .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
            .with(
                attached
                    ? AgentBuilder.RedefinitionStrategy.BatchAllocator.ForFixedSize.ofSize(BATCH)
                    : AgentBuilder.RedefinitionStrategy.BatchAllocator.ForTotal.INSTANCE)
            .with(LoadedTargets.INSTANCE);
    AgentBuilder builder =
        attached
            ? retransforming.with(
                AgentBuilder.RedefinitionStrategy.Listener.Pausing.of(
                    PAUSE_MILLIS, TimeUnit.MILLISECONDS))
            : retransforming;
    return builder
        .with(AgentBuilder.DescriptionStrategy.Default.POOL_ONLY)
        .with(AgentBuilder.PoolStrategy.Default.FAST)
        .with(new LoggingListener(log))
        .with(TargetFilter.decorator())
        .ignore(NEVER)
        .or(not(JDK_TARGETS), isBootstrapClassLoader().or(isExtensionClassLoader()));
  }
}
