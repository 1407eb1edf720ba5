package io.levee.rules.match;

/**
 * A pattern for {@code match.method.methods} (SPEC §5.2): a method name in which {@code *} matches
 * any run of characters ({@code find*}, {@code *Async}). Case-sensitive, like method names. A
 * pattern is Java identifier characters and {@code *}, and does not start with a digit; so {@code
 * <init>} is refused, as constructors are never woven.
 */
public final class MethodNamePattern {
  private static final String HINT = "like quote or find*";

  private final String source;

  private MethodNamePattern(String source) {
    this.source = source;
  }

  /**
   * @throws PatternException when the pattern is not a method name pattern
   */
  public static MethodNamePattern compile(String pattern) {
    if (pattern == null || pattern.isEmpty()) {
      throw new PatternException(
          String.valueOf(pattern), PatternException.WHOLE, "expected a method name pattern", HINT);
    }
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '*' || isNameChar(c)) {
        continue;
      }
      if (c == '(' || c == '.' || c == '#') {
        throw new PatternException(
            pattern,
            i,
            "a method pattern is a method's name alone, without " + PatternException.describe(c),
            "as the class goes in `class` and every overload is matched, " + HINT);
      }
      throw new PatternException(
          pattern,
          i,
          "a method pattern cannot contain " + PatternException.describe(c),
          c == '<'
              ? "as constructors and static initialisers are never woven, " + HINT
              : "as it is a method name with *, " + HINT);
    }
    char first = pattern.charAt(0);
    if (first != '*' && !Character.isJavaIdentifierStart(first)) {
      throw new PatternException(
          pattern, 0, "a method name cannot start with " + PatternException.describe(first), HINT);
    }
    return new MethodNamePattern(pattern);
  }

  /** Whether the method name matches. Null never matches. */
  public boolean matches(String name) {
    return name != null && Glob.matches(source, name, 0, name.length(), false);
  }

  /**
   * Whether {@code c} may appear in a class or method name as the rules write it: a Java identifier
   * character ({@code $} included), but none that identifiers ignore, such as control characters.
   */
  static boolean isNameChar(char c) {
    return Character.isJavaIdentifierPart(c) && !Character.isIdentifierIgnorable(c);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MethodNamePattern && ((MethodNamePattern) o).source.equals(source);
  }

  @Override
  public int hashCode() {
    return source.hashCode();
  }

  @Override
  public String toString() {
    return source;
  }
}
