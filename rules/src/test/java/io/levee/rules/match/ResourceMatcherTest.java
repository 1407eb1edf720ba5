package io.levee.rules.match;

import static io.levee.rules.testing.TestRules.http;
import static io.levee.rules.testing.TestRules.jdbc;
import static io.levee.rules.testing.TestRules.list;
import static io.levee.rules.testing.TestRules.method;
import static io.levee.rules.testing.TestRules.ops;
import static io.levee.rules.testing.TestRules.rules;
import static io.levee.rules.testing.TestRules.servlet;
import static io.levee.rules.testing.TestRules.withExcludes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.levee.rules.model.Operation;
import io.levee.rules.model.RuleSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResourceMatcherTest {
  private static final List<String> ANY = list();
  private static final String PG = "jdbc:postgresql://db1:5432/orders";
  private static final String H2 = "jdbc:h2:mem:test;DB_CLOSE_DELAY=-1";

  @Test
  void firstMatchingResourceWinsInFileOrder() {
    ResourceMatcher m =
        new ResourceMatcher(
            rules(
                servlet("checkout", list("POST"), "/shop/checkout/**"),
                servlet("shop", ANY, "/shop/**"),
                servlet("all", ANY, "/**")));
    assertThat(m.servlet("POST", "/shop/checkout/pay")).isEqualTo(0);
    assertThat(m.servlet("GET", "/shop/checkout/pay")).isEqualTo(1);
    assertThat(m.servlet("GET", "/shop")).isEqualTo(1);
    assertThat(m.servlet("GET", "/home")).isEqualTo(2);
  }

  @Test
  void returnsMinusOneWhenNothingMatches() {
    ResourceMatcher m = new ResourceMatcher(rules(servlet("api", ANY, "/api/*")));
    assertThat(m.servlet("GET", "/other")).isEqualTo(-1);
    assertThat(m.http("GET", "http://x/")).isEqualTo(-1);
    assertThat(m.jdbc(PG, "SELECT 1")).isEqualTo(-1);
    assertThat(m.jdbcConnect(PG)).isEqualTo(-1);
    assertThat(new ResourceMatcher(RuleSet.EMPTY).servlet("GET", "/")).isEqualTo(-1);
  }

  @Test
  void neverFindsAMethodResourceButCountsItInTheIndex() {
    ResourceMatcher m =
        new ResourceMatcher(
            rules(
                method("pricing", list("com.acme.PriceClient"), ANY, null),
                servlet("in", ANY, "/**"),
                method("stock", list("com.acme.**"), list("find*"), null),
                http("out", ANY, "*://**/**"),
                jdbc("db", ANY, ops(Operation.CONNECT), ANY, null)));
    assertThat(m.servlet("GET", "/x")).isEqualTo(1);
    assertThat(m.http("GET", "https://a.example.com/x")).isEqualTo(3);
    assertThat(m.jdbc(PG, "SELECT 1")).isEqualTo(-1);
    assertThat(m.jdbcConnect(PG)).isEqualTo(4);
    assertThat(m.systemExcluded("/x")).isFalse();
  }

  @Test
  void indexCountsResourcesOfEveryKind() {
    ResourceMatcher m =
        new ResourceMatcher(
            rules(
                http("out", ANY, "*://**/**"),
                jdbc("db", ANY, ops(), ANY, null),
                servlet("in", ANY, "/**")));
    assertThat(m.servlet("GET", "/x")).isEqualTo(2);
    assertThat(m.http("GET", "https://a.example.com/x")).isEqualTo(0);
    assertThat(m.jdbc(PG, "SELECT 1")).isEqualTo(1);
  }

  @Test
  void readsSqlOnlyWhereAResourceBeforeTheFirstCatchAllLooksAtIt() {
    ResourceMatcher m =
        new ResourceMatcher(
            rules(
                jdbc("pg-selects", list("jdbc:postgresql://**"), ops(Operation.SELECT), ANY, null),
                jdbc("everything", ANY, ops(), ANY, null),
                jdbc("after-everything", ANY, ops(), list("orders"), null)));
    assertThat(m.jdbcReadsSql(PG)).isTrue();
    assertThat(m.jdbcReadsSql(H2)).isFalse();
    assertThat(m.jdbcReadsSql(null)).isTrue();

    ResourceMatcher plain =
        new ResourceMatcher(rules(servlet("in", ANY, "/**"), jdbc("all", ANY, ops(), ANY, null)));
    assertThat(plain.jdbcReadsSql(PG)).isFalse();
    assertThat(plain.jdbcReadsSql(null)).isFalse();
    assertThat(new ResourceMatcher(RuleSet.EMPTY).jdbcReadsSql(null)).isFalse();
  }

  @Test
  void kindsDoNotCrossOver() {
    ResourceMatcher m = new ResourceMatcher(rules(servlet("in", ANY, "/**")));
    assertThat(m.http("GET", "http://h/x")).isEqualTo(-1);
    assertThat(m.jdbc(PG, "SELECT 1")).isEqualTo(-1);
  }

  @Test
  void methodsCompareCaseInsensitivelyAndEmptyMeansAll() {
    ResourceMatcher m =
        new ResourceMatcher(
            rules(
                servlet("writes", list("POST", "PUT"), "/api/**"),
                http("gets", list("GET"), "https://h/**"),
                http("rest", ANY, "https://h/**")));
    assertThat(m.servlet("post", "/api/x")).isEqualTo(0);
    assertThat(m.servlet("PUT", "/api/x")).isEqualTo(0);
    assertThat(m.servlet("GET", "/api/x")).isEqualTo(-1);
    assertThat(m.servlet(null, "/api/x")).isEqualTo(-1);
    assertThat(m.http("GET", "https://h/a")).isEqualTo(1);
    assertThat(m.http("DELETE", "https://h/a")).isEqualTo(2);
  }

  @Test
  void servletPathsIgnoreQueryAndPathParameters() {
    ResourceMatcher m = new ResourceMatcher(rules(servlet("item", ANY, "/item/{id}")));
    assertThat(m.servlet("GET", "/item/42?x=1")).isEqualTo(0);
    assertThat(m.servlet("GET", "/item/42;jsessionid=ABC")).isEqualTo(0);
    assertThat(m.servlet("GET", "/item/42/more")).isEqualTo(-1);
    assertThat(m.servlet("GET", null)).isEqualTo(-1);
  }

  @Test
  void jdbcRequiresUrlOperationTablesAndSqlTogether() {
    ResourceMatcher m =
        new ResourceMatcher(
            rules(
                jdbc(
                    "orders-read",
                    list("jdbc:postgresql://*/orders*"),
                    ops(Operation.SELECT),
                    list("orders", "order_*"),
                    null),
                jdbc("reports", ANY, ops(), ANY, "(?i)\\bjoin\\b.*report"),
                jdbc(
                    "pg-writes",
                    list("jdbc:postgresql://**"),
                    ops(Operation.INSERT, Operation.UPDATE),
                    ANY,
                    null),
                jdbc("rest", ANY, ops(), ANY, null)));
    assertThat(m.jdbc(PG, "SELECT * FROM public.orders WHERE id = ?")).isEqualTo(0);
    assertThat(m.jdbc(PG, "SELECT * FROM customers c JOIN order_lines l ON 1=1")).isEqualTo(0);
    assertThat(m.jdbc(PG, "SELECT * FROM customers")).isEqualTo(3);
    assertThat(m.jdbc(H2, "SELECT * FROM orders")).isEqualTo(3);
    assertThat(m.jdbc(PG, "DELETE FROM orders")).isEqualTo(3);
    assertThat(m.jdbc(PG, "SELECT * FROM a JOIN report r ON 1=1")).isEqualTo(1);
    assertThat(m.jdbc(PG, "UPDATE orders SET x = 1")).isEqualTo(2);
    assertThat(m.jdbc(H2, "UPDATE orders SET x = 1")).isEqualTo(3);
  }

  @Test
  void statementWithoutKnownTableDoesNotMatchTables() {
    ResourceMatcher m = new ResourceMatcher(rules(jdbc("t", ANY, ops(), list("*"), null)));
    assertThat(m.jdbc(PG, "SELECT * FROM t")).isEqualTo(0);
    assertThat(m.jdbc(PG, "SELECT 1")).isEqualTo(-1);
    assertThat(m.jdbc(PG, "SELECT 1 FROM dual")).isEqualTo(-1);
  }

  @Test
  void tablePatternWithoutSchemaMatchesLastPart() {
    ResourceMatcher m =
        new ResourceMatcher(
            rules(
                jdbc("qualified", ANY, ops(), list("billing.invoices"), null),
                jdbc("bare", ANY, ops(), list("invoices"), null)));
    assertThat(m.jdbc(PG, "SELECT * FROM billing.invoices")).isEqualTo(0);
    assertThat(m.jdbc(PG, "SELECT * FROM other.invoices")).isEqualTo(1);
    assertThat(m.jdbc(PG, "SELECT * FROM INVOICES")).isEqualTo(1);
  }

  @Test
  void connectMatchesOnlyResourcesNamingConnect() {
    ResourceMatcher m =
        new ResourceMatcher(
            rules(
                jdbc("statements", ANY, ops(), ANY, null),
                jdbc("select", ANY, ops(Operation.SELECT), ANY, null),
                jdbc("pool", list("jdbc:postgresql://**"), ops(Operation.CONNECT), ANY, null),
                jdbc(
                    "h2-all",
                    list("jdbc:h2:**"),
                    ops(Operation.CONNECT, Operation.SELECT),
                    ANY,
                    null)));
    assertThat(m.jdbcConnect(PG)).isEqualTo(2);
    assertThat(m.jdbcConnect(H2)).isEqualTo(3);
    assertThat(m.jdbcConnect("jdbc:mysql://h/db")).isEqualTo(-1);
    assertThat(m.jdbc(PG, "SELECT 1")).isEqualTo(0);
  }

  @Test
  void connectOnlyResourceNeverMatchesStatements() {
    ResourceMatcher m =
        new ResourceMatcher(
            rules(
                jdbc("pool", ANY, ops(Operation.CONNECT), ANY, null),
                jdbc("rest", ANY, ops(), ANY, null)));
    assertThat(m.jdbc(PG, "SELECT 1")).isEqualTo(1);
    assertThat(m.jdbc(PG, null)).isEqualTo(1);
    assertThat(m.jdbcConnect(PG)).isEqualTo(0);
  }

  @Test
  void unknownSqlMatchesOnlyResourcesThatDoNotLookAtSql() {
    ResourceMatcher m =
        new ResourceMatcher(
            rules(
                jdbc("ops", ANY, ops(Operation.SELECT), ANY, null),
                jdbc("tables", ANY, ops(), list("orders"), null),
                jdbc("sql", ANY, ops(), ANY, "orders"),
                jdbc("pg", list("jdbc:postgresql://**"), ops(), ANY, null)));
    assertThat(m.jdbc(PG, null)).isEqualTo(3);
    assertThat(m.jdbc(H2, null)).isEqualTo(-1);
    assertThat(m.jdbc(PG, "SELECT * FROM orders")).isEqualTo(0);
  }

  @Test
  void jdbcUrlPropertiesAreIgnored() {
    ResourceMatcher m =
        new ResourceMatcher(rules(jdbc("h2", list("jdbc:h2:mem:*"), ops(), ANY, null)));
    assertThat(m.jdbc(H2, "SELECT 1")).isEqualTo(0);
    assertThat(m.jdbc("JDBC:H2:mem:other", "SELECT 1")).isEqualTo(0);
    assertThat(m.jdbc("jdbc:h2:file:/tmp/db", "SELECT 1")).isEqualTo(-1);
    assertThat(m.jdbc(null, "SELECT 1")).isEqualTo(-1);
  }

  @Test
  void sameSqlOnTwoDatabasesIsDecidedPerUrl() {
    ResourceMatcher m =
        new ResourceMatcher(
            rules(
                jdbc("pg-orders", list("jdbc:postgresql://**"), ops(), list("orders"), null),
                jdbc("h2-orders", list("jdbc:h2:**"), ops(), list("orders"), null)));
    String sql = "SELECT * FROM orders";
    for (int i = 0; i < 3; i++) {
      assertThat(m.jdbc(PG, sql)).isEqualTo(0);
      assertThat(m.jdbc(H2, sql)).isEqualTo(1);
      assertThat(m.jdbc("jdbc:mysql://h/db", sql)).isEqualTo(-1);
    }
  }

  @Test
  void systemExcludesUsePathPatterns() {
    ResourceMatcher m =
        new ResourceMatcher(
            withExcludes(list("/health", "/actuator/**"), servlet("all", ANY, "/**")));
    assertThat(m.systemExcluded("/health")).isTrue();
    assertThat(m.systemExcluded("/health/")).isTrue();
    assertThat(m.systemExcluded("/actuator")).isTrue();
    assertThat(m.systemExcluded("/actuator/metrics/jvm")).isTrue();
    assertThat(m.systemExcluded("/healthz")).isFalse();
    assertThat(m.systemExcluded("/api/health")).isFalse();
    assertThat(m.systemExcluded(null)).isFalse();
    assertThat(new ResourceMatcher(rules()).systemExcluded("/health")).isFalse();
  }

  @Test
  void cachedAnswersEqualFreshOnes() {
    ResourceMatcher m =
        new ResourceMatcher(rules(servlet("a", list("GET"), "/a/**"), servlet("b", ANY, "/**")));
    for (int i = 0; i < 3; i++) {
      assertThat(m.servlet("GET", "/a/1")).isEqualTo(0);
      assertThat(m.servlet("POST", "/a/1")).isEqualTo(1);
    }
    assertThat(m.cachedPaths()).isEqualTo(1);
  }

  @Test
  void cachesStayBoundedAndCorrectPastTheirSize() {
    ResourceMatcher m =
        new ResourceMatcher(
            withExcludes(
                list("/health"),
                servlet("even", ANY, "/even/**"),
                servlet("rest", ANY, "/**"),
                http("api", ANY, "https://api.example.com/**"),
                jdbc("orders", list("jdbc:postgresql://**"), ops(), list("orders"), null),
                jdbc("pool", list("jdbc:postgresql://**"), ops(Operation.CONNECT), ANY, null)));
    int n = ResourceMatcher.MAX_ENTRIES * 3;
    for (int i = 0; i < n; i++) {
      String prefix = i % 2 == 0 ? "/even/" : "/odd/";
      assertThat(m.servlet("GET", prefix + i)).isEqualTo(i % 2 == 0 ? 0 : 1);
      assertThat(m.http("GET", "https://api.example.com/item/" + i)).isEqualTo(2);
      assertThat(m.systemExcluded("/x/" + i)).isFalse();
      String table = i % 2 == 0 ? "orders" : "other";
      assertThat(m.jdbc(PG, "SELECT " + i + " FROM " + table)).isEqualTo(i % 2 == 0 ? 3 : -1);
      assertThat(m.jdbcConnect("jdbc:postgresql://db" + i + "/x")).isEqualTo(4);
    }
    assertThat(m.cachedPaths()).isLessThanOrEqualTo(ResourceMatcher.MAX_ENTRIES);
    assertThat(m.cachedUrls()).isLessThanOrEqualTo(ResourceMatcher.MAX_ENTRIES);
    assertThat(m.cachedExcludes()).isLessThanOrEqualTo(ResourceMatcher.MAX_ENTRIES);
    assertThat(m.cachedSql()).isLessThanOrEqualTo(ResourceMatcher.MAX_ENTRIES);
    assertThat(m.cachedJdbcUrls()).isLessThanOrEqualTo(ResourceMatcher.MAX_JDBC_URLS);
    assertThat(m.systemExcluded("/health")).isTrue();
    assertThat(m.servlet("GET", "/even/again")).isEqualTo(0);
  }

  @Test
  void longSqlIsMatchedButNotCached() {
    ResourceMatcher m =
        new ResourceMatcher(
            rules(jdbc("orders", ANY, ops(Operation.SELECT), list("orders"), null)));
    StringBuilder sql = new StringBuilder("SELECT * FROM orders WHERE id IN (0");
    while (sql.length() <= ResourceMatcher.MAX_SQL_LENGTH) {
      sql.append(", 1");
    }
    sql.append(")");
    assertThat(m.jdbc(PG, sql.toString())).isEqualTo(0);
    assertThat(m.cachedSql()).isZero();
  }

  @Test
  void invalidPatternNamesTheResource() {
    assertThatThrownBy(() -> new ResourceMatcher(rules(servlet("bad", ANY, "no-slash"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad");
    assertThatThrownBy(() -> new ResourceMatcher(rules(jdbc("re", ANY, ops(), ANY, "("))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("re");
  }
}
