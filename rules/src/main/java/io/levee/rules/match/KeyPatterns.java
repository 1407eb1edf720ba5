package io.levee.rules.match;

import java.util.List;

/**
 * The {@code keys} of a {@code rate-limit.overrides} entry: keys and {@code *} patterns, matched
 * whole and case-sensitively. Matched once per key when its bucket is made, never per call.
 */
public final class KeyPatterns {
  private final String[] patterns;

  public KeyPatterns(List<String> patterns) {
    this.patterns = patterns.toArray(new String[0]);
  }

  public boolean matches(String key) {
    for (String p : patterns) {
      if (Glob.matches(p, key, 0, key.length(), false)) {
        return true;
      }
    }
    return false;
  }
}
