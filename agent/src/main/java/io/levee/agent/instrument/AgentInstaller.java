package io.levee.agent.instrument;

import io.levee.agent.log.AgentLog;
import java.lang.instrument.Instrumentation;
import java.util.List;

/**
 * Installs every integration in one {@link Weaver}, so that one transformer undoes them all at a
 * detach.
 *
 * <p>The recipe, and why: retransformation without class format changes, because a runtime attach
 * can only change method bodies of loaded classes (so state lives in weak maps, never fields);
 * types judged from class files only ({@link SuperTypes}), so matching never loads or links an
 * application class early; errors logged, so a class we cannot handle stays as it was; and a reads
 * edge from java.base (for {@code HttpURLConnection}) and java.net.http (for {@code HttpClient}) to
 * the boot loader's unnamed module, where the bridge lives, without which code woven into those
 * modules could not call it on Java 9+ ({@link ReadEdge}).
 */
public final class AgentInstaller {
  /** Classes retransformed at once after an attach or at a detach, and the pause in between. */
  private static final int BATCH = 100;

  private static final long PAUSE_MILLIS = 50;

  private AgentInstaller() {}

  public static Weaver install(Instrumentation inst, List<Integration> integrations, AgentLog log) {
    return install(inst, prepare(integrations, log, null), log, false);
  }

  /**
   * The weaver for {@code integrations}, not yet installed: an integration that fails to give its
   * transformations is left out, logged, and removed from {@code integrations}, so that what names
   * them afterwards (the start-up line) names only those in force.
   */
  public static Weaver prepare(List<Integration> integrations, AgentLog log, RuleWeaving methods) {
    Transformations transformations = new Transformations();
    for (java.util.Iterator<Integration> it = integrations.iterator(); it.hasNext(); ) {
      Integration integration = it.next();
      try {
        integration.addTo(transformations);
        log.debug("integration " + integration.name() + " ready");
      } catch (Throwable t) {
        log.warn("integration " + integration.name() + " left out", t);
        it.remove();
      }
    }
    return new Weaver(transformations, log, methods);
  }

  /**
   * Retransforms {@code classes} with {@code weaver} installed, in the batches of an attach: what a
   * change of the method resources does to the loaded classes it concerns.
   */
  public static void retransform(Instrumentation inst, Weaver weaver, List<Class<?>> classes) {
    weaver.retransform(inst, classes, BATCH, PAUSE_MILLIS);
  }

  /**
   * Installs {@code weaver}: from now on it sees every class the JVM loads, and the classes already
   * loaded that it matches are retransformed. After a runtime attach ({@code attached}) that is
   * done in batches with a pause between them, because each retransformation stops the world and a
   * busy application must not notice one long stop.
   */
  public static Weaver install(
      Instrumentation inst, Weaver weaver, AgentLog log, boolean attached) {
    ReadEdge.fromJdkModules(inst, log);
    inst.addTransformer(weaver, true);
    List<Class<?>> loaded = weaver.loadedTargets(inst);
    weaver.retransform(
        inst, loaded, attached ? BATCH : Math.max(1, loaded.size()), attached ? PAUSE_MILLIS : 0);
    return weaver;
  }

  /**
   * Detach: removes the transformer and retransforms every class it changed back to its original
   * bytecode, in the same batches as an attach. False if it was removed before.
   */
  public static boolean reset(Instrumentation inst, Weaver weaver) {
    return weaver.reset(inst, BATCH, PAUSE_MILLIS);
  }
}
