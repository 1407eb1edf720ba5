package io.levee.rules.match;

/**
 * A JDBC URL glob such as {@code jdbc:postgresql://*}{@code /orders*} or {@code jdbc:h2:mem:*}.
 *
 * <p>{@code *} matches any run of characters except {@code /}; {@code **} matches anything. The
 * {@code jdbc:subprotocol:} prefix is compared case-insensitively, the rest exactly. Driver
 * properties are ignored: the URL is matched up to its first {@code ?} or {@code ;} (H2, Derby and
 * SQL Server put properties after {@code ;}), unless the pattern itself contains one of them, in
 * which case the whole URL is matched, so that {@code jdbc:sqlserver://db1;databaseName=orders*}
 * can still be written.
 *
 * <p>Matching is the textbook dynamic programme over (pattern position × URL position), O(p × u)
 * with two small rows allocated per call. The two kinds of star make the single-backtrack shortcut
 * of {@link Glob} unsound, and this runs only when {@link ResourceMatcher} meets a URL for the
 * first time.
 */
public final class JdbcUrlPattern {
  private static final char STAR = '\uFFFE';
  private static final char DOUBLE_STAR = '\uFFFF';

  private final String source;
  private final char[] tokens;
  private final boolean withProperties;

  private JdbcUrlPattern(String source, char[] tokens, boolean withProperties) {
    this.source = source;
    this.tokens = tokens;
    this.withProperties = withProperties;
  }

  /**
   * @throws PatternException when the pattern does not start with {@code jdbc:}, has nothing after
   *     it, or holds a blank
   */
  public static JdbcUrlPattern compile(String pattern) {
    if (pattern == null || !pattern.startsWith("jdbc:")) {
      throw new PatternException(
          String.valueOf(pattern),
          PatternException.WHOLE,
          "expected a JDBC URL pattern starting with jdbc:",
          "like jdbc:postgresql://*/orders*");
    }
    if (pattern.length() == 5) {
      throw new PatternException(
          pattern,
          5,
          "a JDBC URL pattern needs more than jdbc:",
          "like jdbc:postgresql://*/orders*, or jdbc:** for every database");
    }
    int blank = PatternException.firstBlank(pattern, 0, pattern.length());
    if (blank >= 0) {
      throw new PatternException(
          pattern,
          blank,
          "a JDBC URL pattern cannot contain " + PatternException.describe(pattern.charAt(blank)),
          "like jdbc:postgresql://*/orders*");
    }
    int prefixEnd = prefixEnd(pattern);
    char[] tokens = new char[pattern.length()];
    int n = 0;
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '*') {
        boolean doubled = i + 1 < pattern.length() && pattern.charAt(i + 1) == '*';
        char star = doubled ? DOUBLE_STAR : STAR;
        while (i + 1 < pattern.length() && pattern.charAt(i + 1) == '*') {
          i++;
        }
        if (n > 0 && (tokens[n - 1] == STAR || tokens[n - 1] == DOUBLE_STAR)) {
          tokens[n - 1] = tokens[n - 1] == DOUBLE_STAR ? DOUBLE_STAR : star;
        } else {
          tokens[n++] = star;
        }
      } else {
        tokens[n++] = i < prefixEnd ? Glob.lower(c) : c;
      }
    }
    char[] exact = new char[n];
    System.arraycopy(tokens, 0, exact, 0, n);
    boolean withProperties = pattern.indexOf(';') >= 0 || pattern.indexOf('?') >= 0;
    return new JdbcUrlPattern(pattern, exact, withProperties);
  }

  /** Whether the JDBC URL matches; null never does. */
  public boolean matches(String jdbcUrl) {
    if (jdbcUrl == null) {
      return false;
    }
    int end = jdbcUrl.length();
    if (!withProperties) {
      for (int i = 0; i < end; i++) {
        char c = jdbcUrl.charAt(i);
        if (c == '?' || c == ';') {
          end = i;
          break;
        }
      }
    }
    int prefixEnd = jdbcUrl.regionMatches(true, 0, "jdbc:", 0, 5) ? prefixEnd(jdbcUrl) : 0;
    int m = tokens.length;
    boolean[] row = new boolean[m + 1];
    boolean[] next = new boolean[m + 1];
    row[0] = true;
    for (int j = 1; j <= m; j++) {
      row[j] = row[j - 1] && isStar(tokens[j - 1]);
    }
    for (int i = 0; i < end; i++) {
      char c = jdbcUrl.charAt(i);
      char folded = i < prefixEnd ? Glob.lower(c) : c;
      next[0] = false;
      boolean any = false;
      for (int j = 1; j <= m; j++) {
        char t = tokens[j - 1];
        boolean v;
        if (t == DOUBLE_STAR) {
          v = next[j - 1] || row[j];
        } else if (t == STAR) {
          v = next[j - 1] || (row[j] && c != '/');
        } else {
          v = row[j - 1] && t == folded;
        }
        next[j] = v;
        any |= v;
      }
      if (!any) {
        return false;
      }
      boolean[] swap = row;
      row = next;
      next = swap;
    }
    return row[m];
  }

  private static boolean isStar(char t) {
    return t == STAR || t == DOUBLE_STAR;
  }

  /**
   * The index just after {@code jdbc:subprotocol:}, or after {@code jdbc:} when there is no second
   * colon.
   */
  private static int prefixEnd(String url) {
    int second = url.indexOf(':', 5);
    return second < 0 ? 5 : second + 1;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof JdbcUrlPattern && ((JdbcUrlPattern) o).source.equals(source);
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
