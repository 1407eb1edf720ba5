package io.levee.agent.instrument;

import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;

/**
 * Stands in front of ByteBuddy's transformer and lets through only the classes that can be targets,
 * so that the thousands of classes an application loads at start-up cost a glance each instead of a
 * ByteBuddy type description (which parses every member of the class file and runs every matcher).
 * That glance is the class's header ({@link ClassHeader}) and the shared {@link SuperTypes} index.
 *
 * <p>It only ever says no: to a JDK class outside the {@code HttpURLConnection} implementation, and
 * to a class whose whole ancestry is known and holds none of the target APIs. Everything else
 * (a retransformation, a class whose ancestor has no readable class file, any error of its own, a
 * class loaded while it is itself looking up a class file) goes to ByteBuddy as before, whose
 * matchers decide.
 */
final class TargetFilter extends ResettableClassFileTransformer.WithDelegation {
  /** The JDK package an integration targets, as an internal name. */
  private static final String JDK_TARGETS = AgentInstaller.JDK_TARGET_PACKAGE.replace('.', '/');

  private static final ThreadLocal<Boolean> BUSY = new ThreadLocal<Boolean>();

  private final ClassLoader platform;

  private TargetFilter(ResettableClassFileTransformer delegate) {
    super(delegate);
    ClassLoader system = ClassLoader.getSystemClassLoader();
    this.platform = system == null ? null : system.getParent();
  }

  static AgentBuilder.TransformerDecorator decorator() {
    return new AgentBuilder.TransformerDecorator() {
      @Override
      public ResettableClassFileTransformer decorate(ResettableClassFileTransformer delegate) {
        return new TargetFilter(delegate);
      }
    };
  }

  @Override
  public byte[] transform(
      ClassLoader loader,
      String internalName,
      Class<?> classBeingRedefined,
      ProtectionDomain domain,
      byte[] bytes)
      throws IllegalClassFormatException {
    if (classBeingRedefined == null && internalName != null && cannotBeTarget(loader, internalName, bytes)) {
      return null;
    }
    return classFileTransformer.transform(loader, internalName, classBeingRedefined, domain, bytes);
  }

  private boolean cannotBeTarget(ClassLoader loader, String internalName, byte[] bytes) {
    if ((loader == null || loader == platform) && !internalName.startsWith(JDK_TARGETS)) {
      return true;
    }
    if (BUSY.get() == Boolean.TRUE) {
      return false;
    }
    BUSY.set(Boolean.TRUE);
    try {
      ClassHeader header = ClassHeader.read(bytes);
      return header != null
          && SuperTypes.SHARED.mask(internalName.replace('/', '.'), header, loader) == 0;
    } catch (Throwable t) {
      return false;
    } finally {
      BUSY.set(Boolean.FALSE);
    }
  }
}
