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
 * /shop/a/b}). A pattern holds no blank, {@code ?}, {@code #} or {@code ;}; a variable's name in a
 * servlet path is letters, digits, {@code _} and {@code -}.
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
   * Compiles a servlet path pattern, which starts with {@code /}.
   *
   * @throws PatternException when the pattern is invalid
   */
  public static PathPattern compile(String pattern) {
    if (pattern == null || !pattern.startsWith("/")) {
      throw new PatternException(
          String.valueOf(pattern),
          PatternException.WHOLE,
          "expected a path pattern starting with /",
          "like /shop/**");
    }
    return parse(pattern, 0, true);
  }

  /**
   * Compiles pattern[from, end), which starts with {@code /}; errors give offsets in the whole
   * pattern. A variable's name is letters, digits, '_' and '-' when {@code plainNames}, as servlet
   * paths require; a URL's path takes any name, because only the segment it stands for is used.
   */
  static PathPattern parse(String pattern, int from, boolean plainNames) {
    int len = pattern.length();
    for (int i = from; i < len; i++) {
      char c = pattern.charAt(i);
      if (PatternException.isBlank(c)) {
        throw new PatternException(
            pattern,
            i,
            "a path pattern cannot contain " + PatternException.describe(c),
            "use * for a segment that holds one, like /files/*");
      }
      if (c == '?' || c == '#' || c == ';') {
        throw new PatternException(
            pattern,
            i,
            PatternException.describe(c) + " cannot appear in a path pattern",
            "as paths are matched without query, fragment and path parameters");
      }
    }
    List<Byte> kinds = new ArrayList<Byte>();
    List<String> texts = new ArrayList<String>();
    int start = from;
    while (start < len) {
      int end = pattern.indexOf('/', start);
      end = end < 0 ? len : end;
      if (end > start) {
        String segment = pattern.substring(start, end);
        byte kind = kindOf(segment, pattern, start, plainNames);
        boolean repeatedAny = kind == ANY && !kinds.isEmpty() && kinds.get(kinds.size() - 1) == ANY;
        if (!repeatedAny) {
          kinds.add(kind);
          texts.add(segment);
        }
      }
      start = end + 1;
    }
    byte[] kindArray = new byte[kinds.size()];
    for (int i = 0; i < kindArray.length; i++) {
      kindArray[i] = kinds.get(i);
    }
    return new PathPattern(
        pattern.substring(from), kindArray, texts.toArray(new String[texts.size()]));
  }

  /** The kind of the segment that starts at {@code at} in the pattern. */
  private static byte kindOf(String segment, String pattern, int at, boolean plainNames) {
    if (segment.equals("**")) {
      return ANY;
    }
    int doubleStar = segment.indexOf("**");
    if (doubleStar >= 0) {
      throw new PatternException(
          pattern, at + doubleStar, "`**` must be a whole segment", "like /shop/** or /**/edit");
    }
    if (segment.equals("*")) {
      return ONE;
    }
    int open = segment.indexOf('{');
    int close = segment.indexOf('}');
    if (open < 0 && close < 0) {
      return segment.indexOf('*') >= 0 ? GLOB : LITERAL;
    }
    int last = segment.length() - 1;
    if (open == 0 && close == last && last > 1 && segment.lastIndexOf('{') == 0) {
      for (int i = 1; plainNames && i < last; i++) {
        if (!isNameChar(segment.charAt(i))) {
          throw new PatternException(
              pattern,
              at + i,
              "a path variable's name is letters, digits, '_' or '-'",
              "like /users/{id}");
        }
      }
      return ONE;
    }
    boolean oneVariable =
        open >= 0
            && close > open + 1
            && segment.lastIndexOf('{') == open
            && segment.lastIndexOf('}') == close;
    if (oneVariable) {
      throw new PatternException(
          pattern, at, "a path variable must be a whole segment", "like /users/{id}");
    }
    throw new PatternException(
        pattern,
        at + (open < 0 ? close : close < 0 ? open : Math.min(open, close)),
        "`{` and `}` must enclose a name within one segment",
        "like /users/{id}");
  }

  private static boolean isNameChar(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '_'
        || c == '-';
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
