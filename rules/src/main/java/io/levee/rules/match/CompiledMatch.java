package io.levee.rules.match;

import io.levee.rules.model.CallKind;
import io.levee.rules.model.Match;
import io.levee.rules.model.Operation;
import io.levee.rules.model.ResourceRule;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code match:} of one resource with its patterns compiled. Empty arrays (and a null {@link
 * #operations} or {@link #sql}) match everything, as SPEC §2 says of omitted fields. A {@code
 * method} match compiles nothing here, since its resource is chosen where a class is woven ({@link
 * MethodPlan}), never by looking a call up. Immutable.
 */
final class CompiledMatch {
  final CallKind kind;
  final String[] methods;
  final PathPattern[] paths;
  final UrlPattern[] urls;
  final JdbcUrlPattern[] jdbcUrls;

  /** By {@link Operation#ordinal()}; null when {@code operations} is empty. */
  final boolean[] operations;

  final TablePattern[] tables;
  final Pattern sql;

  CompiledMatch(ResourceRule rule) {
    Match m = rule.match;
    try {
      kind = m.kind;
      methods = m.methods.toArray(new String[0]);
      paths = new PathPattern[kind == CallKind.SERVLET ? m.paths.size() : 0];
      for (int i = 0; i < paths.length; i++) {
        paths[i] = PathPattern.compile(m.paths.get(i));
      }
      urls = new UrlPattern[kind == CallKind.HTTP ? m.urls.size() : 0];
      for (int i = 0; i < urls.length; i++) {
        urls[i] = UrlPattern.compile(m.urls.get(i));
      }
      jdbcUrls = new JdbcUrlPattern[kind == CallKind.JDBC ? m.urls.size() : 0];
      for (int i = 0; i < jdbcUrls.length; i++) {
        jdbcUrls[i] = JdbcUrlPattern.compile(m.urls.get(i));
      }
      boolean jdbc = kind == CallKind.JDBC;
      operations = jdbc && !m.operations.isEmpty() ? new boolean[Operation.values().length] : null;
      if (operations != null) {
        for (Operation op : m.operations) {
          operations[op.ordinal()] = true;
        }
      }
      List<String> tableList = m.tables;
      tables = new TablePattern[jdbc ? tableList.size() : 0];
      for (int i = 0; i < tables.length; i++) {
        tables[i] = TablePattern.compile(tableList.get(i));
      }
      sql = jdbc && m.sql != null ? Pattern.compile(m.sql) : null;
    } catch (IllegalArgumentException e) {
      // PatternSyntaxException is one too
      throw new IllegalArgumentException(rule + ": " + e.getMessage(), e);
    }
  }

  boolean methodMatches(String method) {
    if (methods.length == 0) {
      return true;
    }
    if (method == null) {
      return false;
    }
    for (String m : methods) {
      if (m.equalsIgnoreCase(method)) {
        return true;
      }
    }
    return false;
  }

  boolean pathMatches(String path) {
    if (paths.length == 0) {
      return true;
    }
    for (PathPattern p : paths) {
      if (p.matches(path)) {
        return true;
      }
    }
    return false;
  }

  boolean urlMatches(String url) {
    if (urls.length == 0) {
      return true;
    }
    for (UrlPattern p : urls) {
      if (p.matches(url)) {
        return true;
      }
    }
    return false;
  }

  boolean jdbcUrlMatches(String url) {
    if (jdbcUrls.length == 0) {
      return true;
    }
    for (JdbcUrlPattern p : jdbcUrls) {
      if (p.matches(url)) {
        return true;
      }
    }
    return false;
  }

  /** Whether acquiring a connection matches: only when {@code operations} names CONNECT. */
  boolean connects() {
    return operations != null && operations[Operation.CONNECT.ordinal()];
  }

  /** Whether every statement matches, whatever its SQL (so also one whose SQL is unknown). */
  boolean matchesAnyStatement() {
    return operations == null && tables.length == 0 && sql == null;
  }

  boolean statementMatches(SqlInfo info, String text) {
    if (operations != null && !operations[info.operation.ordinal()]) {
      return false;
    }
    if (tables.length > 0 && !anyTableMatches(info.tables)) {
      return false;
    }
    return sql == null || sql.matcher(text).find();
  }

  boolean anyTableMatches(String[] names) {
    for (String name : names) {
      for (TablePattern p : tables) {
        if (p.matches(name)) {
          return true;
        }
      }
    }
    return false;
  }
}
