package io.levee.rules.match;

import java.util.ArrayList;
import java.util.List;

/**
 * A pattern for {@code match.method.class} (SPEC §5.2), matched against binary class names with
 * dots ({@code com.acme.Outer$Inner}).
 *
 * <p>Segments are separated by {@code .}. In a segment {@code *} matches any run of characters,
 * never a dot ({@code com.acme.*Client}, and {@code com.acme.Outer*} also matches {@code
 * com.acme.Outer$Inner}); a segment {@code **} matches any number of segments, including none
 * ({@code com.acme.**.*Client} matches {@code com.acme.FooClient} and {@code
 * com.acme.a.b.FooClient}). Case-sensitive, like class names. A segment is Java identifier
 * characters (with {@code $}) and {@code *}, and does not start with a digit.
 *
 * <p>A pattern that could match a class under {@code java.}, {@code jdk.}, {@code sun.}, {@code
 * com.sun.}, {@code io.levee.} or {@code net.bytebuddy.} does not compile, whether it names one
 * ({@code java.util.List}) or could reach one through a wildcard ({@code com.**.Client}, {@code
 * *.Foo}): weaving the JDK, the agent or the bytecode library agents run on could break the JVM or
 * Levee itself, and a rule never needs to, since an application interface or superclass already
 * covers its implementations.
 *
 * <p>Matching walks the name once with a single backtrack point on the last {@code **}, as {@link
 * PathPattern} does: no regular expression, no allocation.
 */
public final class ClassPattern {
  /** Where Levee never weaves, as segments, with whose classes they are. */
  private static final String[][] FORBIDDEN = {
    {"java", "the JDK"},
    {"jdk", "the JDK"},
    {"sun", "the JDK"},
    {"com.sun", "the JDK"},
    {"io.levee", "Levee itself"},
    {"net.bytebuddy", "the bytecode library agents run on"},
  };

  private static final String HINT = "like com.acme.pricing.PriceClient or com.acme.**.*Client";

  private final String source;

  /** The segments; {@code **} stands for any number of segments. */
  private final String[] segments;

  private ClassPattern(String source, String[] segments) {
    this.source = source;
    this.segments = segments;
  }

  /**
   * @throws PatternException when the pattern is not a class name pattern, or could match classes
   *     Levee never weaves
   */
  public static ClassPattern compile(String pattern) {
    if (pattern == null || pattern.isEmpty()) {
      throw new PatternException(
          String.valueOf(pattern), PatternException.WHOLE, "expected a class name pattern", HINT);
    }
    List<String> segments = new ArrayList<String>();
    int start = 0;
    while (true) {
      int end = pattern.indexOf('.', start);
      end = end < 0 ? pattern.length() : end;
      String segment = pattern.substring(start, end);
      checkSegment(pattern, segment, start);
      boolean repeatedAny =
          segment.equals("**")
              && !segments.isEmpty()
              && segments.get(segments.size() - 1).equals("**");
      if (!repeatedAny) {
        segments.add(segment);
      }
      if (end == pattern.length()) {
        break;
      }
      start = end + 1;
    }
    String[] array = segments.toArray(new String[segments.size()]);
    checkWeavable(pattern, array);
    return new ClassPattern(pattern, array);
  }

  private static void checkSegment(String pattern, String segment, int at) {
    if (segment.isEmpty()) {
      throw new PatternException(pattern, at, "a class pattern cannot have an empty segment", HINT);
    }
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      if (c == '*' || MethodNamePattern.isNameChar(c)) {
        continue;
      }
      if (c == '/') {
        throw new PatternException(
            pattern,
            at + i,
            "a class pattern separates packages with `.`, not `/`",
            "like com.acme.pricing.PriceClient");
      }
      throw new PatternException(
          pattern,
          at + i,
          "a class pattern cannot contain " + PatternException.describe(c),
          "as it is a binary class name ($ before a nested class) with * and **, " + HINT);
    }
    char first = segment.charAt(0);
    if (first != '*' && !Character.isJavaIdentifierStart(first)) {
      throw new PatternException(
          pattern,
          at,
          "a segment of a class name cannot start with " + PatternException.describe(first),
          HINT);
    }
    int doubleStar = segment.indexOf("**");
    if (doubleStar >= 0 && !segment.equals("**")) {
      throw new PatternException(
          pattern,
          at + doubleStar,
          "`**` must be a whole segment",
          "like com.acme.** or com.acme.**.*Client");
    }
  }

  private static void checkWeavable(String pattern, String[] segments) {
    if (segments[0].equals("*") || segments[0].equals("**")) {
      throw new PatternException(
          pattern,
          0,
          "a class pattern cannot start with a wildcard segment, as it could match the JDK's"
              + " classes and Levee's own",
          "start with the application's package, like com.acme.**.*Client");
    }
    for (String[] forbidden : FORBIDDEN) {
      String[] prefix = forbidden[0].split("\\.");
      if (!couldStartWith(segments, prefix)) {
        continue;
      }
      String under = "classes under `" + forbidden[0] + ".` (" + forbidden[1] + ")";
      int wildcard = pattern.indexOf('*');
      if (wildcard < 0 || wildcard > forbidden[0].length()) {
        throw new PatternException(
            pattern,
            0,
            "Levee never weaves " + under,
            "name the application's classes or interfaces, " + HINT);
      }
      throw new PatternException(
          pattern,
          wildcard,
          "this pattern could match " + under + ", which Levee never weaves",
          "name the package before any wildcard, " + HINT);
    }
  }

  /**
   * Whether some name that starts with the segments of {@code prefix} and has at least one segment
   * more matches {@code pattern}: which pattern positions the prefix can lead to, then whether any
   * segment is left to match the rest of the name.
   */
  private static boolean couldStartWith(String[] pattern, String[] prefix) {
    boolean[] at = new boolean[pattern.length + 1];
    at[0] = true;
    closeOverAny(pattern, at);
    for (String segment : prefix) {
      boolean[] next = new boolean[pattern.length + 1];
      for (int k = 0; k < pattern.length; k++) {
        if (!at[k]) {
          continue;
        }
        if (pattern[k].equals("**")) {
          next[k] = true;
        } else if (Glob.matches(pattern[k], segment, 0, segment.length(), false)) {
          next[k + 1] = true;
        }
      }
      closeOverAny(pattern, next);
      at = next;
    }
    for (int k = 0; k < pattern.length; k++) {
      if (at[k]) {
        return true;
      }
    }
    return false;
  }

  /** A position before {@code **} also stands after it, since {@code **} may match no segment. */
  private static void closeOverAny(String[] pattern, boolean[] at) {
    for (int k = 0; k < pattern.length; k++) {
      if (at[k] && pattern[k].equals("**")) {
        at[k + 1] = true;
      }
    }
  }

  /** Whether the binary class name (with dots) matches. Null never matches. */
  public boolean matches(String name) {
    if (name == null) {
      return false;
    }
    int n = segments.length;
    int to = name.length();
    int k = 0;
    int pos = 0;
    int starK = -1;
    int starPos = 0;
    // pos is the start of the next segment of the name, or past its end when none is left
    while (pos <= to) {
      int end = name.indexOf('.', pos);
      end = end < 0 ? to : end;
      if (k < n) {
        if (segments[k].equals("**")) {
          starK = k++;
          starPos = pos;
          continue;
        }
        if (Glob.matches(segments[k], name, pos, end, false)) {
          k++;
          pos = end + 1;
          continue;
        }
      }
      if (starK < 0) {
        return false;
      }
      // let the last ** take one more segment of the name, and try the rest of the pattern again
      int starEnd = name.indexOf('.', starPos);
      k = starK + 1;
      starPos = starEnd < 0 ? to + 1 : starEnd + 1;
      pos = starPos;
    }
    while (k < n && segments[k].equals("**")) {
      k++;
    }
    return k == n;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClassPattern && ((ClassPattern) o).source.equals(source);
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
