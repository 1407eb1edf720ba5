package io.levee.agent.instrument;

import java.security.ProtectionDomain;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;
import net.bytebuddy.utility.JavaModule;

/**
 * Matches the concrete classes that extend or implement one of some APIs, through the shared
 * {@link SuperTypes} index rather than ByteBuddy's {@code hasSuperType}, which would describe every
 * ancestor of every class the application loads again. Fail-safe: a class whose hierarchy cannot be
 * described (a super type without a class file) does not match, and stays as it was.
 */
public final class Implementing implements AgentBuilder.RawMatcher {
  private final int mask;
  private final ElementMatcher<? super TypeDescription> excluded;

  private Implementing(int mask, ElementMatcher<? super TypeDescription> excluded) {
    this.mask = mask;
    this.excluded = excluded;
  }

  /** Concrete classes that are subtypes of any of {@code apis} (each one of {@link SuperTypes#APIS}). */
  public static Implementing anyOf(String... apis) {
    int mask = 0;
    for (String api : apis) {
      mask |= SuperTypes.bit(api);
    }
    return new Implementing(mask, ElementMatchers.none());
  }

  /** The same, minus the classes {@code excluded} matches (a cheap test, on names, comes first). */
  public Implementing unless(ElementMatcher<? super TypeDescription> excluded) {
    return new Implementing(mask, excluded);
  }

  @Override
  public boolean matches(
      TypeDescription type,
      ClassLoader loader,
      JavaModule module,
      Class<?> classBeingRedefined,
      ProtectionDomain domain) {
    try {
      return !excluded.matches(type)
          && !type.isInterface()
          && (SuperTypes.SHARED.mask(type, loader) & mask) != 0;
    } catch (Throwable t) {
      return false;
    }
  }
}
