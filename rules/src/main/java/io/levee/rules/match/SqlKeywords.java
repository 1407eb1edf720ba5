package io.levee.rules.match;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/** The upper-case words {@link SqlParser} acts on, grouped by what they tell it. */
final class SqlKeywords {
  /** Words after which a comma no longer separates FROM items. */
  static final Set<String> ENDS_FROM_LIST =
      words(
          "WHERE GROUP ORDER HAVING LIMIT OFFSET FETCH FOR SET WINDOW RETURNING VALUES SELECT"
              + " QUALIFY CONNECT START WHEN DO PIVOT UNPIVOT OUTPUT");

  /** Words that can stand where a table is expected and are never one. */
  static final Set<String> NOT_A_TABLE =
      words(
          "SELECT WITH VALUES WHERE SET ON USING JOIN INNER LEFT RIGHT FULL CROSS NATURAL OUTER"
              + " GROUP ORDER HAVING LIMIT UNION DEFAULT FROM INTO AS ALL DISTINCT TOP");

  /** Between INSERT (or REPLACE) and its target: MySQL, SQLite and Hive modifiers. */
  static final Set<String> INSERT_MODIFIERS =
      words(
          "IGNORE LOW_PRIORITY DELAYED HIGH_PRIORITY OR REPLACE ROLLBACK ABORT FAIL OVERWRITE"
              + " TABLE");

  /** Objects a DDL statement may create or drop that are not tables. */
  static final Set<String> NO_TABLE_OBJECTS =
      words(
          "SEQUENCE PROCEDURE FUNCTION SCHEMA DATABASE USER ROLE TRIGGER TYPE DOMAIN EXTENSION"
              + " PACKAGE SYNONYM TABLESPACE EVENT");

  private SqlKeywords() {}

  private static Set<String> words(String list) {
    return new HashSet<String>(Arrays.asList(list.split(" ")));
  }
}
