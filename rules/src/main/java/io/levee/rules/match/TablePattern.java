package io.levee.rules.match;

import java.util.Locale;

/**
 * A pattern for {@code match.jdbc.tables}, matched against the names {@link SqlClassifier} reports
 * (lower-case, dotted, without quotes).
 *
 * <p>A pattern of k dot-separated parts matches the last k parts of a name: {@code orders} matches
 * {@code orders}, {@code public.orders} and {@code shop.public.orders}; {@code public.orders}
 * matches {@code public.orders} and {@code shop.public.orders} but not a bare {@code orders}, whose
 * schema is unknown. In each part {@code *} matches any run of characters ({@code order_*}), never
 * a dot. Case-insensitive. A pattern holds no blank and none of {@code , ; ( ) '}.
 */
public final class TablePattern {
  /** Characters that end a name in SQL text, so that a name in a pattern cannot hold them. */
  private static final String NOT_IN_NAMES = ",;()'";

  private final String source;
  private final String[] parts;

  private TablePattern(String source, String[] parts) {
    this.source = source;
    this.parts = parts;
  }

  /**
   * @throws PatternException when the pattern is empty, has an empty part or a character no table
   *     name has here
   */
  public static TablePattern compile(String pattern) {
    if (pattern == null || pattern.isEmpty()) {
      throw new PatternException(
          String.valueOf(pattern),
          PatternException.WHOLE,
          "expected a table name pattern",
          "like orders or order_*");
    }
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (PatternException.isBlank(c) || NOT_IN_NAMES.indexOf(c) >= 0) {
        throw new PatternException(
            pattern,
            i,
            "a table pattern cannot contain " + PatternException.describe(c),
            "as it stands for one table name, like orders or order_*");
      }
    }
    // lower-casing keeps every dot, so part k starts after the k-th dot of the pattern as written
    String[] parts = pattern.toLowerCase(Locale.ROOT).split("\\.", -1);
    int partStart = 0;
    for (String part : parts) {
      if (part.isEmpty()) {
        throw new PatternException(
            pattern,
            partStart,
            "a table pattern cannot have an empty part",
            "like orders or public.orders");
      }
      partStart = pattern.indexOf('.', partStart) + 1;
    }
    return new TablePattern(pattern, parts);
  }

  /** Whether the table name (as {@link SqlInfo#tables()} gives it) matches. */
  public boolean matches(String table) {
    if (table == null) {
      return false;
    }
    int end = table.length();
    for (int k = parts.length - 1; k >= 0; k--) {
      if (end < 0) {
        return false;
      }
      int start = table.lastIndexOf('.', end - 1) + 1;
      if (!Glob.matches(parts[k], table, start, end, true)) {
        return false;
      }
      end = start - 1;
    }
    return true;
  }

  @Override
  public String toString() {
    return source;
  }
}
