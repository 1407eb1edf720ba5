package io.levee.rules.match;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.Operation;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SqlClassifierTest {

  static Stream<Arguments> corpus() {
    return Stream.of(
        // plain statements
        c("SELECT * FROM orders", "SELECT", "orders"),
        c("select id from Orders where id = ?", "SELECT", "orders"),
        c("INSERT INTO orders (id, total) VALUES (?, ?)", "INSERT", "orders"),
        c("UPDATE orders SET total = ? WHERE id = ?", "UPDATE", "orders"),
        c("DELETE FROM orders WHERE id = ?", "DELETE", "orders"),
        // comments, hints, literals
        c(
            "/* leading */ -- line\n SELECT /*+ INDEX(o idx) */ o.id FROM orders o",
            "SELECT",
            "orders"),
        c("SELECT 'FROM fake' , \"col\" FROM real_t WHERE x = 'it''s FROM x'", "SELECT", "real_t"),
        c("SELECT E'it\\'s FROM x', $$ FROM y $$, $tag$ FROM z $tag$ FROM t", "SELECT", "t"),
        c("-- SELECT * FROM nope\nDELETE FROM audit", "DELETE", "audit"),
        // quoted identifiers and schemas
        c("SELECT * FROM \"Public\".\"Order Items\"", "SELECT", "public.order items"),
        c("SELECT * FROM `shop`.`orders`", "SELECT", "shop.orders"),
        c("SELECT * FROM [dbo].[Orders] WITH (NOLOCK)", "SELECT", "dbo.orders"),
        c("SELECT * FROM sales.dbo.orders", "SELECT", "sales.dbo.orders"),
        c("SELECT * FROM \"we\"\"ird\"", "SELECT", "we\"ird"),
        // joins
        c("SELECT * FROM a JOIN b ON a.id = b.a_id", "SELECT", "a", "b"),
        c(
            "SELECT * FROM a INNER JOIN b ON 1=1 LEFT OUTER JOIN c ON 1=1 RIGHT JOIN d ON 1=1"
                + " FULL OUTER JOIN e ON 1=1 CROSS JOIN f NATURAL JOIN g",
            "SELECT",
            "a",
            "b",
            "c",
            "d",
            "e",
            "f",
            "g"),
        c("SELECT * FROM a, b x, s.c AS y WHERE a.id = x.id", "SELECT", "a", "b", "s.c"),
        c("SELECT * FROM a STRAIGHT_JOIN b ON a.x = b.x", "SELECT", "a", "b"),
        c("SELECT * FROM (a JOIN b ON a.x = b.x) JOIN c ON c.y = a.y", "SELECT", "a", "b", "c"),
        c("SELECT * FROM a CROSS APPLY (SELECT * FROM b WHERE b.id = a.id) x", "SELECT", "a", "b"),
        c("SELECT * FROM {oj a LEFT OUTER JOIN b ON a.id = b.id}", "SELECT", "a", "b"),
        c(
            "select o1_0.id from orders o1_0 left join customers c1_0 on c1_0.id=o1_0.customer_id"
                + " where o1_0.id=?",
            "SELECT",
            "orders",
            "customers"),
        c(
            "SELECT * FROM a LEFT JOIN (b JOIN c ON b.x = c.x) ON a.y = b.y",
            "SELECT",
            "a",
            "b",
            "c"),
        c("SELECT TOP 10 * FROM ONLY big_t", "SELECT", "big_t"),
        c("UPDATE TOP (10) queue SET taken = 1", "UPDATE", "queue"),
        c(
            "SELECT * FROM t1 a, LATERAL (SELECT * FROM t2 WHERE t2.a = a.id) l",
            "SELECT",
            "t1",
            "t2"),
        c("INSERT INTO \"Orders\" (\"Id\") VALUES (?)", "INSERT", "orders"),
        // sub-queries
        c("SELECT * FROM (SELECT * FROM inner_t) s, other_t o", "SELECT", "inner_t", "other_t"),
        c(
            "SELECT * FROM a WHERE id IN (SELECT a_id FROM b WHERE EXISTS (SELECT 1 FROM c))",
            "SELECT",
            "a",
            "b",
            "c"),
        c("SELECT (SELECT max(x) FROM b) AS m FROM a", "SELECT", "b", "a"),
        c("SELECT EXTRACT(YEAR FROM created), SUBSTRING(name FROM 2 FOR 3) FROM t", "SELECT", "t"),
        c("SELECT * FROM generate_series(1, 10) g, t", "SELECT", "t"),
        c("(SELECT a FROM x) UNION ALL (SELECT a FROM y) ORDER BY 1", "SELECT", "x", "y"),
        c("SELECT a FROM x UNION SELECT b, c FROM y", "SELECT", "x", "y"),
        c("SELECT * FROM t ORDER BY a, b LIMIT 10, 20", "SELECT", "t"),
        c("SELECT * FROM t WHERE id = ? FOR UPDATE OF t SKIP LOCKED", "SELECT", "t"),
        c("SELECT 1 FROM DUAL", "SELECT"),
        c("SELECT 1", "SELECT"),
        // CTEs
        c(
            "WITH recent AS (SELECT * FROM orders WHERE d > ?) SELECT * FROM recent JOIN users u ON"
                + " 1=1",
            "SELECT",
            "orders",
            "users"),
        c(
            "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5) SELECT *"
                + " FROM t",
            "SELECT"),
        c(
            "WITH a AS (SELECT * FROM x), b AS MATERIALIZED (SELECT * FROM y) INSERT INTO z SELECT"
                + " * FROM a, b",
            "INSERT",
            "x",
            "y",
            "z"),
        c(
            "WITH gone AS (DELETE FROM old RETURNING *) INSERT INTO archive SELECT * FROM gone",
            "INSERT",
            "old",
            "archive"),
        c(
            "WITH s AS (SELECT id FROM src) UPDATE dst SET x = 1 FROM s WHERE dst.id = s.id",
            "UPDATE",
            "src",
            "dst"),
        // writes of every shape
        c("INSERT INTO t SELECT * FROM s", "INSERT", "t", "s"),
        c("INSERT IGNORE INTO t (a) VALUES (1) ON DUPLICATE KEY UPDATE a = a + 1", "INSERT", "t"),
        c("INSERT OR REPLACE INTO t VALUES (1)", "INSERT", "t"),
        c("REPLACE INTO t (a, b) VALUES (1, 2), (3, 4)", "INSERT", "t"),
        c(
            "INSERT INTO t (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET a = excluded.a",
            "INSERT",
            "t"),
        c(
            "INSERT ALL INTO t1 VALUES (1) INTO t2 VALUES (2) SELECT * FROM dual",
            "INSERT",
            "t1",
            "t2"),
        c("INSERT users VALUES (1)", "INSERT", "users"),
        c("UPDATE LOW_PRIORITY a JOIN b ON a.id = b.id SET a.x = b.x", "UPDATE", "a", "b"),
        c("UPDATE a, b SET a.x = b.x WHERE a.id = b.id", "UPDATE", "a", "b"),
        c("UPDATE t SET x = (SELECT max(y) FROM u) WHERE id = ?", "UPDATE", "t", "u"),
        c("DELETE t1, t2 FROM t1 INNER JOIN t2 ON t1.id = t2.id", "DELETE", "t1", "t2"),
        c("DELETE FROM t USING u WHERE t.id = u.id", "DELETE", "t", "u"),
        c("DELETE orders WHERE id = ?", "DELETE", "orders"),
        c(
            "MERGE INTO target t USING source s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.x ="
                + " s.x WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id)",
            "UPDATE",
            "target",
            "source"),
        c(
            "MERGE INTO target USING (SELECT * FROM staging) s ON 1=1 WHEN MATCHED THEN DELETE",
            "UPDATE",
            "target",
            "staging"),
        // calls
        c("{call billing.charge(?, ?)}", "CALL", "billing.charge"),
        c("{ ? = call next_id(?) }", "CALL", "next_id"),
        c("CALL refresh_stats()", "CALL", "refresh_stats"),
        c("EXEC @rc = dbo.usp_close ?", "CALL", "dbo.usp_close"),
        c("EXECUTE sp_who", "CALL", "sp_who"),
        // DDL
        c("CREATE TABLE IF NOT EXISTS orders_2024 (id int)", "DDL", "orders_2024"),
        c("CREATE GLOBAL TEMPORARY TABLE tmp (id int)", "DDL", "tmp"),
        c("ALTER TABLE ONLY orders ADD COLUMN note text", "DDL", "orders"),
        c("DROP TABLE IF EXISTS a, b CASCADE", "DDL", "a", "b"),
        c("TRUNCATE TABLE logs", "DDL", "logs"),
        c("TRUNCATE logs", "DDL", "logs"),
        c("RENAME TABLE a TO b", "DDL", "a"),
        c("CREATE UNIQUE INDEX CONCURRENTLY idx ON orders (id)", "DDL", "orders"),
        c("CREATE VIEW v AS SELECT * FROM base", "DDL", "v", "base"),
        c("CREATE SEQUENCE seq START 1", "DDL"),
        // other
        c("SET search_path TO shop", "OTHER"),
        c("COMMIT", "OTHER"),
        c("EXPLAIN SELECT * FROM t", "OTHER"),
        c("GRANT SELECT ON t TO bob", "OTHER"),
        c("", "OTHER"),
        c("   -- only a comment", "OTHER"),
        c("SELECT 1; DELETE FROM t", "SELECT", "t"));
  }

  private static Arguments c(String sql, String op, String... tables) {
    return Arguments.of(sql, Operation.valueOf(op), tables);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("corpus")
  void classifiesCorpus(String sql, Operation op, String[] tables) {
    SqlInfo info = SqlClassifier.classify(sql);
    assertThat(info.operation()).as("operation").isEqualTo(op);
    assertThat(info.tables()).as("tables").containsExactly(tables);
  }

  @Test
  void corpusIsLargeEnough() {
    assertThat(corpus().count()).isGreaterThanOrEqualTo(40);
  }

  @Test
  void nullIsOtherWithoutTables() {
    assertThat(SqlClassifier.classify(null).operation()).isEqualTo(Operation.OTHER);
    assertThat(SqlClassifier.classify(null).tables()).isEmpty();
  }

  @Test
  void readsOnlyTheFirst32KiB() {
    StringBuilder sql = new StringBuilder("SELECT * FROM a WHERE x IN (");
    while (sql.length() < SqlLexer.MAX_CHARS) {
      sql.append("1, ");
    }
    sql.append("2) AND EXISTS (SELECT 1 FROM beyond)");
    SqlInfo info = SqlClassifier.classify(sql.toString());
    assertThat(info.operation()).isEqualTo(Operation.SELECT);
    assertThat(info.tables()).containsExactly("a");
  }

  @Test
  void tablesIsACopy() {
    SqlInfo info = SqlClassifier.classify("SELECT * FROM t");
    info.tables()[0] = "changed";
    assertThat(info.tables()).containsExactly("t");
  }
}
