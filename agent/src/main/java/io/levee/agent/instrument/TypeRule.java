package io.levee.agent.instrument;

/**
 * The classes an integration weaves, and how: concrete classes that extend or implement one of some
 * target APIs (bits of {@link SuperTypes#APIS}), optionally only under a package, minus some
 * packages, and the {@link MethodRule}s for their declared methods.
 */
public final class TypeRule {
  final int apis;
  private final String within;
  private final String[] excluded;
  final MethodRule[] methods;

  private TypeRule(int apis, String within, String[] excluded, MethodRule[] methods) {
    this.apis = apis;
    this.within = within;
    this.excluded = excluded;
    this.methods = methods;
  }

  /**
   * Classes that are or extend or implement any of {@code apis} (binary names from {@link
   * SuperTypes#APIS}).
   */
  public static TypeRule implementing(String... apis) {
    int mask = 0;
    for (String api : apis) {
      mask |= SuperTypes.bit(api);
    }
    return new TypeRule(mask, null, new String[0], new MethodRule[0]);
  }

  /** Only classes whose binary name starts with {@code prefix}. */
  public TypeRule within(String prefix) {
    return new TypeRule(apis, prefix.replace('.', '/'), excluded, methods);
  }

  /** Not the classes whose binary name starts with one of {@code prefixes}. */
  public TypeRule except(String... prefixes) {
    String[] internal = new String[prefixes.length];
    for (int i = 0; i < prefixes.length; i++) {
      internal[i] = prefixes[i].replace('.', '/');
    }
    return new TypeRule(apis, within, internal, methods);
  }

  public TypeRule methods(MethodRule... rules) {
    return new TypeRule(apis, within, excluded, rules);
  }

  /** For a class named {@code internalName} whose ancestry has the API bits {@code mask}. */
  boolean matches(String internalName, int mask) {
    return (mask & apis) != 0 && named(internalName);
  }

  /** The name tests alone. */
  boolean named(String internalName) {
    if (within != null && !internalName.startsWith(within)) {
      return false;
    }
    for (String prefix : excluded) {
      if (internalName.startsWith(prefix)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a class declaring a method like this could be woven by this rule, whatever its
   * ancestry.
   */
  final ClassHeader.MethodTest weavable =
      new ClassHeader.MethodTest() {
        @Override
        public boolean test(int access, String name, String descriptor) {
          return adviceFor(access, name, descriptor) != null;
        }
      };

  /** The advice for a declared method, or null. */
  Advice adviceFor(int access, String name, String descriptor) {
    for (MethodRule m : methods) {
      if (m.matches(access, name, descriptor)) {
        return m.advice;
      }
    }
    return null;
  }
}
