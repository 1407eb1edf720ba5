package io.levee.rules.model;

import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * {@code match:} of a resource: exactly one kind. Fields that do not apply to the kind are empty;
 * an empty list (or null {@link #sql}) matches everything.
 */
public final class Match {
  public final CallKind kind;

  /** Upper-case HTTP methods (servlet, http). */
  public final List<String> methods;

  /** Path patterns (servlet). */
  public final List<String> paths;

  /** URL patterns (http) or JDBC URL patterns (jdbc). */
  public final List<String> urls;

  /** jdbc only. */
  public final Set<Operation> operations;

  /** jdbc only: table name patterns. */
  public final List<String> tables;

  /** jdbc only: a regular expression searched in the SQL text, or null. */
  public final String sql;

  /** method only: the classes and methods it names; null for the other kinds. */
  public final MethodMatch method;

  /** A {@code method} match. */
  public Match(MethodMatch method) {
    this(
        CallKind.METHOD,
        Collections.<String>emptyList(),
        Collections.<String>emptyList(),
        Collections.<String>emptyList(),
        java.util.EnumSet.noneOf(Operation.class),
        Collections.<String>emptyList(),
        null,
        method);
  }

  public Match(
      CallKind kind,
      List<String> methods,
      List<String> paths,
      List<String> urls,
      Set<Operation> operations,
      List<String> tables,
      String sql) {
    this(kind, methods, paths, urls, operations, tables, sql, null);
  }

  private Match(
      CallKind kind,
      List<String> methods,
      List<String> paths,
      List<String> urls,
      Set<Operation> operations,
      List<String> tables,
      String sql,
      MethodMatch method) {
    this.kind = kind;
    this.methods = Collections.unmodifiableList(methods);
    this.paths = Collections.unmodifiableList(paths);
    this.urls = Collections.unmodifiableList(urls);
    this.operations = Collections.unmodifiableSet(operations);
    this.tables = Collections.unmodifiableList(tables);
    this.sql = sql;
    this.method = method;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Match)) {
      return false;
    }
    Match m = (Match) o;
    return kind == m.kind
        && methods.equals(m.methods)
        && paths.equals(m.paths)
        && urls.equals(m.urls)
        && operations.equals(m.operations)
        && tables.equals(m.tables)
        && Values.eq(sql, m.sql)
        && Values.eq(method, m.method);
  }

  @Override
  public int hashCode() {
    return Values.hash(kind, methods, paths, urls, operations, tables, sql, method);
  }
}
