package io.levee.rules.match;

import java.util.Locale;

/**
 * The host part of a {@link UrlPattern}: labels matched case-insensitively, {@code *} one label,
 * {@code **} any number of labels (none included), {@code *} inside a label a glob. Same single
 * backtrack point algorithm as {@link PathPattern}, on labels instead of segments.
 */
final class HostPattern {
  private static final byte LITERAL = 0;
  private static final byte GLOB = 1;
  private static final byte ONE = 2;
  private static final byte ANY = 3;

  private final boolean everyHost;
  private final byte[] kinds;
  private final String[] labels;

  private HostPattern(boolean everyHost, byte[] kinds, String[] labels) {
    this.everyHost = everyHost;
    this.kinds = kinds;
    this.labels = labels;
  }

  /** Compiles the host pattern[from, to) of a URL pattern; errors give offsets in the pattern. */
  static HostPattern compile(String pattern, int from, int to) {
    String host = pattern.substring(from, to);
    String lower = host.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".")) {
      lower = lower.substring(0, lower.length() - 1);
    }
    if (lower.equals("*") || lower.equals("**")) {
      // "http://*/x" means any host, not "any single-label host"
      return new HostPattern(true, new byte[0], new String[0]);
    }
    for (int i = from; i < to; i++) {
      char c = pattern.charAt(i);
      if (c == '@' || c == '/' || c == '\\' || c <= ' ') {
        throw new PatternException(
            pattern,
            i,
            "the host of a URL pattern cannot contain " + PatternException.describe(c),
            "like https://pay.example.com/**");
      }
    }
    // lower-casing keeps every dot, so label k starts after the k-th dot of the host as written
    String[] parts = lower.split("\\.", -1);
    byte[] kinds = new byte[parts.length];
    int labelStart = from;
    for (int i = 0; i < parts.length; i++) {
      String label = parts[i];
      if (label.isEmpty()) {
        throw new PatternException(
            pattern,
            labelStart,
            "the host of a URL pattern cannot have an empty label",
            "like https://api.example.com/**");
      }
      if (label.equals("**")) {
        kinds[i] = ANY;
      } else if (label.contains("**")) {
        throw new PatternException(
            pattern,
            labelStart,
            "`**` must be a whole label of a URL pattern's host",
            "like https://**.example.com/**");
      } else if (label.equals("*")) {
        kinds[i] = ONE;
      } else {
        kinds[i] = label.indexOf('*') >= 0 ? GLOB : LITERAL;
      }
      int dot = host.indexOf('.', labelStart - from);
      labelStart = dot < 0 ? to : from + dot + 1;
    }
    return new HostPattern(false, kinds, parts);
  }

  boolean matches(String text, int from, int to) {
    if (everyHost) {
      return true;
    }
    int k = 0;
    int n = kinds.length;
    int pos = from;
    int starK = -1;
    int starPos = 0;
    boolean more = from < to;
    while (more) {
      int end = labelEnd(text, pos, to);
      if (k < n) {
        if (kinds[k] == ANY) {
          starK = k++;
          starPos = pos;
          continue;
        }
        if (labelMatches(k, text, pos, end)) {
          k++;
          more = end < to;
          pos = end + 1;
          continue;
        }
      }
      if (starK < 0) {
        return false;
      }
      k = starK + 1;
      int swallowed = labelEnd(text, starPos, to);
      more = swallowed < to;
      starPos = swallowed + 1;
      pos = starPos;
    }
    while (k < n && kinds[k] == ANY) {
      k++;
    }
    return k == n;
  }

  private boolean labelMatches(int k, String text, int start, int end) {
    switch (kinds[k]) {
      case LITERAL:
        return Glob.equalsRegion(labels[k], text, start, end, true);
      case GLOB:
        return Glob.matches(labels[k], text, start, end, true);
      default:
        return true;
    }
  }

  private static int labelEnd(String text, int start, int to) {
    for (int i = start; i < to; i++) {
      if (text.charAt(i) == '.') {
        return i;
      }
    }
    return to;
  }
}
