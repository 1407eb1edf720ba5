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
 * a dot. Case-insensitive.
 */
public final class TablePattern {
  private final String source;
  private final String[] parts;

  private TablePattern(String source, String[] parts) {
    this.source = source;
    this.parts = parts;
  }

  /**
   * @throws IllegalArgumentException when the pattern is empty or has an empty part
   */
  public static TablePattern compile(String pattern) {
    if (pattern == null || pattern.isEmpty()) {
      throw new IllegalArgumentException("a table pattern cannot be empty");
    }
    String[] parts = pattern.toLowerCase(Locale.ROOT).split("\\.", -1);
    for (String part : parts) {
      if (part.isEmpty()) {
        throw new IllegalArgumentException("empty part in table pattern: " + pattern);
      }
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
