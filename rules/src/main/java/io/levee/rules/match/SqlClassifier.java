package io.levee.rules.match;

/**
 * Tells what a SQL statement does and which tables it names, for {@code match.jdbc.operations} and
 * {@code tables}.
 *
 * <ul>
 *   <li>{@code SELECT} (also {@code SELECT ... FOR UPDATE} and {@code VALUES}), {@code INSERT}
 *       (also {@code REPLACE}, {@code UPSERT}), {@code UPDATE}, {@code DELETE}; {@code MERGE} is an
 *       {@code UPDATE} (an upsert changes rows that may exist).
 *   <li>{@code CALL}: {@code CALL}, {@code {call p(?)}}, {@code {? = call f(?)}}, {@code EXEC},
 *       {@code EXECUTE}; the procedure's name is reported as its table, so {@code tables} can pick
 *       a procedure.
 *   <li>{@code DDL}: {@code CREATE}, {@code ALTER}, {@code DROP}, {@code TRUNCATE}, {@code RENAME};
 *       the table, view or indexed table they name is reported.
 *   <li>{@code OTHER}: everything else, including an empty or unreadable text. A {@code WITH} takes
 *       the operation of its main statement; CTE names are not tables.
 * </ul>
 *
 * <p>Only the first 32 KiB are read, and the operation is that of the first statement while tables
 * come from every statement read. Never throws. Uncached: {@link ResourceMatcher} caches.
 */
public final class SqlClassifier {
  private SqlClassifier() {}

  public static SqlInfo classify(String sql) {
    if (sql == null) {
      return SqlInfo.UNKNOWN;
    }
    try {
      return new SqlParser(sql).parse();
    } catch (RuntimeException e) {
      // a bug here must cost a classification, never the application's query
      return SqlInfo.UNKNOWN;
    }
  }
}
