package io.levee.agent.instrument;

/**
 * The {@link Weaver}'s first glance at a class being loaded: whether it can be a target at all, so
 * that the thousands of classes an application loads at start-up cost a glance each instead of a
 * ByteBuddy type description (which parses every member of the class file and runs every matcher).
 * That glance is the class's header ({@link ClassHeader}) and the shared {@link SuperTypes} index.
 *
 * <p>It only ever says no: to a JDK class outside the {@code HttpURLConnection} implementation, and
 * to a class whose whole ancestry is known and holds none of the target APIs. Everything else (a
 * class whose ancestor has no readable class file, any error of its own, a class loaded while it is
 * itself looking up a class file) goes on to the matchers, which decide.
 */
final class TargetFilter {
  /** The JDK package an integration targets, as an internal name. */
  private static final String JDK_TARGETS = AgentInstaller.JDK_TARGET_PACKAGE.replace('.', '/');

  private final ThreadLocal<Boolean> busy = new ThreadLocal<Boolean>();

  private final ClassLoader platform;

  TargetFilter() {
    ClassLoader system = ClassLoader.getSystemClassLoader();
    this.platform = system == null ? null : system.getParent();
  }

  /** True only if the class {@code internalName}, defined by {@code loader}, cannot be a target. */
  boolean cannotBeTarget(ClassLoader loader, String internalName, byte[] bytes) {
    if ((loader == null || loader == platform) && !internalName.startsWith(JDK_TARGETS)) {
      return true;
    }
    if (busy.get() == Boolean.TRUE) {
      return false;
    }
    busy.set(Boolean.TRUE);
    try {
      ClassHeader header = ClassHeader.read(bytes);
      return header != null
          && SuperTypes.SHARED.mask(internalName.replace('/', '.'), header, loader) == 0;
    } catch (Throwable t) {
      return false;
    } finally {
      busy.set(Boolean.FALSE);
    }
  }
}
