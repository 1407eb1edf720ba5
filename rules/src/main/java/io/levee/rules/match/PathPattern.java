package io.levee.rules.match;

import java.util.ArrayList;
import java.util.List;

/**
 * A path pattern ({@code /shop/checkout/**}, {@code /api/*}/{@code {id}}) compiled to a small
 * program of segment matchers.
 *
 * <p>Rules, for the pattern and the path alike: segments are separated by {@code /}; empty segments
 * are ignored, so {@code //a/} is {@code /a} (a doubled or trailing slash must not dodge a rule).
 * In a path, everything from the first {@code ?} or {@code #} is ignored, and so is every path
 * parameter ({@code ;jsessionid=...}, or any {@code ;...} up to the next slash), because containers
 * leave them in {@code getRequestURI()}. Matching is case-sensitive, like servlet paths. No
 * percent-decoding and no {@code ..} resolution: callers pass the decoded, normalised path the
 * container resolved.
 *
 * <p>Pattern segments: a literal; {@code *} or {@code {name}}: exactly one segment; a glob such as
 * {@code *.json}: {@code *} matches any run of characters inside one segment; {@code **}: any
 * number of segments, including none ({@code /shop/**} matches {@code /shop} and {@code
 * /shop/a/b}).
 *
 * <p>Matching walks the path once with a single backtrack point on the last {@code **} (the classic
 * wildcard algorithm, correct here because every other matcher takes exactly one segment): no
 * regular expression, no allocation, O(segments × pattern) at worst.
 */
public final class PathPattern {
  private static final byte LITERAL = 0;
  private static final byte GLOB = 1;
  private static final byte ONE = 2;
  private static final byte ANY = 3;

  private final String source;
  private final byte[] kinds;
  private final String[] texts;

  private PathPattern(String source, byte[] kinds, String[] texts) {
    this.source = source;
    this.kinds = kinds;
    this.texts = texts;
  }

  /**
   * Compiles a pattern that starts with {@code /}.
   *
   * @throws IllegalArgumentException with a message fit for the user when the pattern is invalid
   */
  public static PathPattern compile(String pattern) {
    if (pattern == null || !pattern.startsWith("/")) {
      throw new IllegalArgumentException("a path pattern must start with '/': " + pattern);
    }
    List<String> segments = new ArrayList<String>();
    for (String segment : pattern.split("/")) {
      if (!segment.isEmpty()) {
        segments.add(segment);
      }
    }
    byte[] kinds = new byte[segments.size()];
    String[] texts = new String[segments.size()];
    int n = 0;
    for (String segment : segments) {
      byte kind = kindOf(segment, pattern);
      if (kind == ANY && n > 0 && kinds[n - 1] == ANY) {
        continue;
      }
      kinds[n] = kind;
      texts[n] = segment;
      n++;
    }
    return new PathPattern(pattern, copy(kinds, n), copy(texts, n));
  }

  private static byte kindOf(String segment, String pattern) {
    for (char bad : new char[] {'?', '#', ';'}) {
      if (segment.indexOf(bad) >= 0) {
        throw new IllegalArgumentException(
            "'"
                + bad
                + "' cannot appear in a path pattern (paths are matched without query and"
                + " path parameters): "
                + pattern);
      }
    }
    if (segment.equals("**")) {
      return ANY;
    }
    if (segment.contains("**")) {
      throw new IllegalArgumentException("'**' must be a whole segment: " + pattern);
    }
    if (segment.equals("*")) {
      return ONE;
    }
    boolean braces = segment.indexOf('{') >= 0 || segment.indexOf('}') >= 0;
    if (braces) {
      if (segment.length() > 2
          && segment.charAt(0) == '{'
          && segment.indexOf('}') == segment.length() - 1
          && segment.lastIndexOf('{') == 0) {
        return ONE;
      }
      throw new IllegalArgumentException(
          "'{name}' must be a whole segment with a non-empty name: " + pattern);
    }
    return segment.indexOf('*') >= 0 ? GLOB : LITERAL;
  }

  /** Whether the path (query, fragment and path parameters ignored) matches. Null never matches. */
  public boolean matches(String path) {
    if (path == null) {
      return false;
    }
    int end = path.length();
    for (int i = 0; i < end; i++) {
      char c = path.charAt(i);
      if (c == '?' || c == '#') {
        end = i;
        break;
      }
    }
    return matches(path, 0, end);
  }

  /** Whether text[from, to), taken as a path with no query, matches. */
  boolean matches(String text, int from, int to) {
    int k = 0;
    int n = kinds.length;
    int pos = from;
    int starK = -1;
    int starPos = 0;
    while (true) {
      int start = segmentStart(text, pos, to);
      if (start >= to) {
        break;
      }
      int end = segmentEnd(text, start, to);
      if (k < n) {
        if (kinds[k] == ANY) {
          starK = k++;
          starPos = start;
          continue;
        }
        if (segmentMatches(k, text, start, valueEnd(text, start, end))) {
          k++;
          pos = end;
          continue;
        }
      }
      if (starK < 0) {
        return false;
      }
      k = starK + 1;
      starPos = segmentEnd(text, segmentStart(text, starPos, to), to);
      pos = starPos;
    }
    while (k < n && kinds[k] == ANY) {
      k++;
    }
    return k == n;
  }

  private boolean segmentMatches(int k, String text, int start, int end) {
    switch (kinds[k]) {
      case LITERAL:
        return Glob.equalsRegion(texts[k], text, start, end, false);
      case GLOB:
        return Glob.matches(texts[k], text, start, end, false);
      default:
        return true;
    }
  }

  /** The start of the next segment with a value at or after pos, or {@code to}. */
  private static int segmentStart(String text, int pos, int to) {
    while (pos < to) {
      char c = text.charAt(pos);
      if (c == '/') {
        pos++;
      } else if (c == ';') {
        // a segment that is only a path parameter ("/;jsessionid=1/") is as good as empty
        pos = segmentEnd(text, pos, to);
      } else {
        return pos;
      }
    }
    return to;
  }

  private static int segmentEnd(String text, int start, int to) {
    for (int i = start; i < to; i++) {
      if (text.charAt(i) == '/') {
        return i;
      }
    }
    return to;
  }

  private static int valueEnd(String text, int start, int end) {
    for (int i = start; i < end; i++) {
      if (text.charAt(i) == ';') {
        return i;
      }
    }
    return end;
  }

  private static byte[] copy(byte[] a, int n) {
    byte[] b = new byte[n];
    System.arraycopy(a, 0, b, 0, n);
    return b;
  }

  private static String[] copy(String[] a, int n) {
    String[] b = new String[n];
    System.arraycopy(a, 0, b, 0, n);
    return b;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PathPattern && ((PathPattern) o).source.equals(source);
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
