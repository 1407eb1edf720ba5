package io.levee.rules.match;

/**
 * A {@code *} wildcard matched against one region of a string, with no allocation.
 *
 * <p>The caller cuts the text into the unit a star may not leave (a path segment, a host label, a
 * table name part), so here {@code *} matches any run of characters, including none. The algorithm
 * is the classic greedy scan with one backtrack point: on a mismatch it returns to the last star
 * and lets it swallow one more character. Because every star is alike, going back to the last one
 * only is enough, and the cost is at most O(pattern × text).
 */
final class Glob {
  private Glob() {}

  /** Whether {@code glob} (already lower-case when {@code ignoreCase}) matches text[from, to). */
  static boolean matches(String glob, String text, int from, int to, boolean ignoreCase) {
    int g = 0;
    int t = from;
    int starG = -1;
    int starT = 0;
    int glen = glob.length();
    while (t < to) {
      if (g < glen) {
        char p = glob.charAt(g);
        if (p == '*') {
          starG = g++;
          starT = t;
          continue;
        }
        if (same(p, text.charAt(t), ignoreCase)) {
          g++;
          t++;
          continue;
        }
      }
      if (starG < 0) {
        return false;
      }
      g = starG + 1;
      t = ++starT;
    }
    while (g < glen && glob.charAt(g) == '*') {
      g++;
    }
    return g == glen;
  }

  /** Whether {@code literal} (lower-case when {@code ignoreCase}) equals text[from, to). */
  static boolean equalsRegion(String literal, String text, int from, int to, boolean ignoreCase) {
    int n = literal.length();
    if (n != to - from) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (!same(literal.charAt(i), text.charAt(from + i), ignoreCase)) {
        return false;
      }
    }
    return true;
  }

  static boolean same(char lowerPattern, char c, boolean ignoreCase) {
    return lowerPattern == c || (ignoreCase && lowerPattern == lower(c));
  }

  static char lower(char c) {
    if (c < 128) {
      return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }
    return Character.toLowerCase(c);
  }
}
