package io.levee.rules.load;

import io.levee.rules.model.CallKind;
import io.levee.rules.model.Match;
import io.levee.rules.model.MethodMatch;
import io.levee.rules.model.Operation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Reads {@code match:}: exactly one kind of call, and the fields that kind has. */
final class MatchReader {
  static final String[] KINDS = {"servlet", "http", "jdbc", "method"};
  static final String[] SERVLET = {"paths", "methods"};
  static final String[] HTTP = {"urls", "methods"};
  static final String[] JDBC = {"urls", "operations", "tables", "sql"};
  static final String[] METHOD = {"class", "methods", "annotated"};

  private MatchReader() {}

  /**
   * The match, or null (with errors) when no single kind is named. A match whose fields have errors
   * is still returned, so the resource's other keys can be checked against its kind.
   */
  static Match read(Section resource) {
    Section m =
        resource.section("match", "a mapping with one of servlet, http, jdbc or method", KINDS);
    if (m == null) {
      resource.missing(
          "match",
          "`match` is required: which calls this resource covers, like"
              + " match: { servlet: { paths: [\"/api/**\"] } }");
      return null;
    }
    if (!m.readable()) {
      return null;
    }
    List<String> kinds = m.keys();
    if (kinds.isEmpty()) {
      m.error("`match` needs one of servlet, http, jdbc or method");
      return null;
    }
    for (int i = 1; i < kinds.size(); i++) {
      m.reject(
          kinds.get(i),
          "a resource matches one kind of call, but `match` has both `"
              + kinds.get(0)
              + "` and `"
              + kinds.get(i)
              + "`; split it into two resources");
    }
    if (kinds.size() > 1) {
      return null;
    }
    String kind = kinds.get(0);
    if (kind.equals("servlet")) {
      return servlet(m);
    }
    if (kind.equals("http")) {
      return http(m);
    }
    return kind.equals("jdbc") ? jdbc(m) : method(m);
  }

  private static Match servlet(Section m) {
    Section s = m.section("servlet", "a mapping with paths and methods", SERVLET);
    List<String> paths = s.list("paths", Patterns.PATH_PATTERN, "[\"/api/**\"]");
    List<String> methods = s.list("methods", Patterns.METHOD, "[GET, POST]");
    return new Match(
        CallKind.SERVLET,
        orEmpty(methods),
        orEmpty(paths),
        none(),
        EnumSet.noneOf(Operation.class),
        none(),
        null);
  }

  private static Match http(Section m) {
    Section s = m.section("http", "a mapping with urls and methods", HTTP);
    List<String> urls = s.list("urls", Patterns.URL_PATTERN, "[\"https://pay.example.com/**\"]");
    List<String> methods = s.list("methods", Patterns.METHOD, "[GET, POST]");
    return new Match(
        CallKind.HTTP,
        orEmpty(methods),
        none(),
        orEmpty(urls),
        EnumSet.noneOf(Operation.class),
        none(),
        null);
  }

  private static Match jdbc(Section m) {
    Section s = m.section("jdbc", "a mapping with urls, operations, tables and sql", JDBC);
    List<String> urls =
        s.list("urls", Patterns.JDBC_URL_PATTERN, "[\"jdbc:postgresql://*/orders\"]");
    List<Operation> operations = s.list("operations", Patterns.OPERATION, "[SELECT, UPDATE]");
    List<String> tables = s.list("tables", Patterns.TABLE_PATTERN, "[orders, order_*]");
    String sql = s.get("sql", Patterns.SQL_REGEX, null);
    Set<Operation> ops = EnumSet.noneOf(Operation.class);
    if (operations != null) {
      ops.addAll(operations);
    }
    if (ops.contains(Operation.CONNECT)) {
      for (String key : new String[] {"tables", "sql"}) {
        if (s.has(key)) {
          s.reject(
              key,
              "`"
                  + key
                  + "` never matches CONNECT, which runs no SQL; match connections"
                  + " in a resource of their own");
        }
      }
    }
    return new Match(CallKind.JDBC, none(), none(), orEmpty(urls), ops, orEmpty(tables), sql);
  }

  private static Match method(Section m) {
    Section s = m.section("method", "a mapping with class, methods and annotated", METHOD);
    List<String> classes =
        s.oneOrList(
            "class",
            Patterns.CLASS_PATTERN,
            "the class or interface whose methods to protect, like"
                + " class: com.acme.pricing.PriceClient");
    List<String> methods =
        s.list(
            "methods",
            Patterns.METHOD_NAME_PATTERN,
            "[quote, \"find*\"]",
            "leave `methods` out to protect every public method the class declares");
    String annotated = s.get("annotated", Patterns.ANNOTATION_NAME_TYPE, null);
    int line = s.mark == null ? 0 : s.mark.getLine() + 1;
    int column = s.mark == null ? 0 : s.mark.getColumn() + 1;
    return new Match(new MethodMatch(orEmpty(classes), orEmpty(methods), annotated, line, column));
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return list != null ? new ArrayList<T>(list) : Collections.<T>emptyList();
  }

  private static List<String> none() {
    return Collections.emptyList();
  }
}
