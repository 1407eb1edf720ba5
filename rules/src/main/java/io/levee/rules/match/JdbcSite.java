package io.levee.rules.match;

/**
 * What one JDBC URL leaves to decide: the jdbc resources whose {@code urls} match it, and the
 * answers that do not depend on the SQL. Immutable; cached per URL by {@link ResourceMatcher}.
 */
final class JdbcSite {
  /** Indices into the rule set's resources, in file order. */
  final int[] candidates;

  /** The first candidate that names CONNECT, or -1. */
  final int connect;

  /**
   * The first candidate that matches every statement, or -1: the answer when the SQL is unknown.
   */
  final int anyStatement;

  /** Whether a candidate before {@link #anyStatement} looks at the SQL, so the SQL must be read. */
  final boolean readsSql;

  JdbcSite(int[] candidates, CompiledMatch[] matches) {
    this.candidates = candidates;
    int connect = -1;
    int anyStatement = -1;
    boolean readsSql = false;
    for (int index : candidates) {
      CompiledMatch m = matches[index];
      if (connect < 0 && m.connects()) {
        connect = index;
      }
      if (anyStatement < 0) {
        if (m.matchesAnyStatement()) {
          anyStatement = index;
        } else {
          readsSql = true;
        }
      }
    }
    this.connect = connect;
    this.anyStatement = anyStatement;
    this.readsSql = readsSql;
  }
}
