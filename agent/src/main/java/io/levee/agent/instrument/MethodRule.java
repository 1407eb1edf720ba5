package io.levee.agent.instrument;

/**
 * Which declared methods of a target class get a {@link Advice}: by name, by how the descriptor
 * starts (the parameter list, or its beginning) and, if asked, public ones only. Abstract, native,
 * bridge and synthetic methods and constructors are never woven (a bridge calls the method it
 * bridges, which is), nor static ones unless the rule says so ({@link #alsoStatic}).
 */
public final class MethodRule {
  private final String[] names;
  private final String[] descriptorPrefixes;
  private final boolean publicOnly;
  private final boolean alsoStatic;
  final Advice advice;

  private MethodRule(
      String[] names,
      String[] descriptorPrefixes,
      boolean publicOnly,
      boolean alsoStatic,
      Advice advice) {
    this.names = names;
    this.descriptorPrefixes = descriptorPrefixes;
    this.publicOnly = publicOnly;
    this.alsoStatic = alsoStatic;
    this.advice = advice;
  }

  /** Methods named one of {@code names}; add the descriptors with {@link #taking}. */
  public static MethodRule named(String... names) {
    return new MethodRule(names, new String[] {"("}, false, false, null);
  }

  /**
   * Descriptors that start with one of {@code prefixes}, e.g. {@code "()"} or {@code
   * "(Ljava/lang/String;"}.
   */
  public MethodRule taking(String... prefixes) {
    return new MethodRule(names, prefixes, publicOnly, alsoStatic, advice);
  }

  public MethodRule publicOnly() {
    return new MethodRule(names, descriptorPrefixes, true, alsoStatic, advice);
  }

  /** Static methods too; their advice must pass nothing of {@code this}. */
  public MethodRule alsoStatic() {
    return new MethodRule(names, descriptorPrefixes, publicOnly, true, advice);
  }

  public MethodRule weave(Advice h) {
    return new MethodRule(names, descriptorPrefixes, publicOnly, alsoStatic, h);
  }

  private static final int NEVER_WOVEN =
      0x0400 /* abstract */ | 0x0100 /* native */ | 0x0040 /* bridge */ | 0x1000 /* synthetic */;

  boolean matches(int access, String name, String descriptor) {
    if ((access & NEVER_WOVEN) != 0
        || (!alsoStatic && (access & 0x0008 /* static */) != 0)
        || (publicOnly && (access & 0x0001) == 0)) {
      return false;
    }
    boolean named = false;
    for (String n : names) {
      if (n.equals(name)) {
        named = true;
        break;
      }
    }
    if (!named) {
      return false;
    }
    for (String prefix : descriptorPrefixes) {
      if (descriptor.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }
}
