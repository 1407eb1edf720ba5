package io.levee.rules.match;

import io.levee.rules.model.Operation;
import java.util.Arrays;

/**
 * What {@link SqlClassifier} found in a SQL text: the statement's operation and the tables it
 * names.
 */
public final class SqlInfo {
  static final String[] NO_TABLES = new String[0];
  static final SqlInfo UNKNOWN = new SqlInfo(Operation.OTHER, NO_TABLES);

  final Operation operation;

  /** Shared with the matcher's cache: never handed out without a copy. */
  final String[] tables;

  SqlInfo(Operation operation, String[] tables) {
    this.operation = operation;
    this.tables = tables;
  }

  /** Never null and never {@link Operation#CONNECT}. */
  public Operation operation() {
    return operation;
  }

  /**
   * The tables the statement names, in order of first appearance, without duplicates: lower-case,
   * unquoted, schema-qualified as written ({@code public.orders}). CTE names are left out; for a
   * {@code CALL} it is the procedure's name. A copy: the caller may keep or change it.
   */
  public String[] tables() {
    return tables.length == 0 ? tables : tables.clone();
  }

  @Override
  public String toString() {
    return operation + " " + Arrays.toString(tables);
  }
}
