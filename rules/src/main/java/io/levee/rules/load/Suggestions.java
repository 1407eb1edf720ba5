package io.levee.rules.load;

import java.util.List;

/**
 * "Did you mean" for unknown keys: the closest valid key by optimal string alignment distance
 * (Levenshtein plus adjacent transposition, so {@code brust} is one edit from {@code burst}),
 * offered when it is at most two edits away and the key is not too short for that to be chance.
 */
final class Suggestions {
  private static final int MAX_DISTANCE = 2;

  private Suggestions() {}

  /** The message for an unknown key among the valid ones. */
  static String unknownKey(String key, List<String> valid) {
    String best = closest(key, valid);
    if (best != null) {
      return "unknown key `" + key + "`; did you mean `" + best + "`?";
    }
    return "unknown key `" + key + "`; expected one of: " + join(valid);
  }

  static String closest(String word, List<String> candidates) {
    String lower = word.toLowerCase(java.util.Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int d = distance(lower, candidate.toLowerCase(java.util.Locale.ROOT));
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    // two edits turn any short word into another; demand that most of the word survives
    boolean close = bestDistance <= MAX_DISTANCE && bestDistance < Math.min(word.length(), 4);
    return close ? best : null;
  }

  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1);
        }
        d[i][j] = v;
      }
    }
    return d[a.length()][b.length()];
  }

  static String join(List<String> words) {
    StringBuilder text = new StringBuilder();
    for (String w : words) {
      if (text.length() > 0) {
        text.append(", ");
      }
      text.append(w);
    }
    return text.toString();
  }
}
