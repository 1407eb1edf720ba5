package io.levee.it.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.Postgres;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the agent promises for JDBC (SPEC §2, kind {@code jdbc}) on one database, pool and JDK per
 * subclass: a concurrency limit on in-flight queries, a breaker on a failing statement, a limit on
 * acquiring connections, one decision per call through a pool, a callable statement decided as a
 * {@code CALL}, a query timeout a rule sets, and SQLState 53000 on every block.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class JdbcContract {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: bounded
          match: { jdbc: { operations: [SELECT], sql: "bounded_sleep" } }
          timeouts: { query: 1s }
        - name: sleepers
          match: { jdbc: { operations: [SELECT], sql: "pg_sleep" } }
          concurrency: { max: 2 }
        - name: broken
          match: { jdbc: { tables: [missing_table] } }
          circuit-breaker: { failure-rate: 50%, minimum-calls: 4, window: 10s, open-for: 60s }
        - name: counted
          match: { jdbc: { operations: [SELECT], tables: [counted_rows] } }
          rate-limit: { rate: 4/h, burst: 4 }
        - name: procedures
          match: { jdbc: { operations: [CALL] } }
          rate-limit: { rate: 2/h, burst: 2 }
      """;

  /** A function on both databases: an H2 alias of {@code H2Functions.leveeDouble}, and this. */
  private static final String PG_FUNCTION =
      "CREATE OR REPLACE FUNCTION levee_double(x int) RETURNS int"
          + " AS 'select x * 2' LANGUAGE sql IMMUTABLE";

  private ForkedApp app;
  private AppClient client;

  /** {@code h2} or {@code pg}. */
  protected abstract String db();

  /** {@code none} or {@code hikari}. */
  protected abstract String pool();

  protected abstract int jdk();

  private String name() {
    return "jdbc-" + db() + "-" + pool() + "-jdk" + jdk();
  }

  @BeforeAll
  void start() {
    if (db().equals("pg")) {
      Postgres.require();
    }
    app = fork(name(), RULES);
    client = new AppClient(app);
    Reply table = sql(client, "CREATE TABLE IF NOT EXISTS counted_rows (id INT)");
    assertThat(table.ok()).as(table.raw()).isTrue();
    if (db().equals("pg")) {
      Reply created = sql(client, PG_FUNCTION, "&mode=statement");
      assertThat(created.ok()).as(created.raw()).isTrue();
    }
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void holdsInFlightQueriesAtTheConcurrencyLimit() {
    List<Reply> replies =
        client.concurrently(5, query("SELECT pg_sleep(1.5)")).stream()
            .map(r -> Reply.parse(r.body()))
            .toList();
    assertThat(replies.stream().filter(Reply::ok)).as(replies.toString()).hasSize(2);
    assertThat(replies.stream().filter(r -> !r.ok()))
        .hasSize(3)
        .allSatisfy(r -> assertBlocked(r, "java.sql.SQLTransientException"));
  }

  @Test
  void opensTheBreakerOnAFailingStatement() {
    // a plain Statement: H2 would already reject a PreparedStatement at prepare time, before any
    // execution the agent decides on
    String failing = "&mode=statement";
    for (int i = 0; i < 4; i++) {
      Reply failed = sql(client, "SELECT * FROM missing_table", failing);
      assertThat(failed.get("sqlState")).as(failed.raw()).startsWith("42");
      assertThat(failed.get("phase")).isEqualTo("execute");
    }
    for (int i = 0; i < 5; i++) {
      assertBlocked(
          sql(client, "SELECT * FROM missing_table", failing), "java.sql.SQLTransientException");
    }
  }

  @Test
  void decidesOncePerStatement() {
    List<Reply> replies = repeat(8, "SELECT count(*) FROM counted_rows");
    assertThat(replies.subList(0, 4)).allSatisfy(r -> assertThat(r.ok()).as(r.raw()).isTrue());
    assertThat(replies.subList(4, 8))
        .allSatisfy(r -> assertBlocked(r, "java.sql.SQLTransientException"));
  }

  @Test
  void decidesACallableStatementAsACall() {
    List<Reply> replies =
        IntStream.range(0, 3)
            .mapToObj(i -> sql(client, "{call levee_double(21)}", "&mode=call"))
            .toList();
    assertThat(replies.subList(0, 2))
        .allSatisfy(r -> assertThat(r.get("value")).as(r.raw()).isEqualTo("42"));
    assertBlocked(replies.get(2), "java.sql.SQLTransientException");
    assertThat(replies.get(2).get("phase")).isEqualTo("execute");
  }

  /**
   * Without a pool the driver's connect decides; with one, the pool's {@code getConnection} (the
   * connects it makes on its own threads to fill itself are never decided).
   */
  @Test
  void limitsAcquiringConnections() {
    String rules =
        """
        version: 1
        resources:
          - name: connections
            match: { jdbc: { operations: [CONNECT] } }
            rate-limit: { rate: 3/h, burst: 3 }
        """;
    try (ForkedApp connecting = fork(name() + "-connect", rules)) {
      AppClient c = new AppClient(connecting);
      List<Reply> replies = IntStream.range(0, 6).mapToObj(i -> sql(c, "SELECT 1")).toList();
      assertThat(replies.subList(0, 3)).allSatisfy(r -> assertThat(r.ok()).as(r.raw()).isTrue());
      assertThat(replies.subList(3, 6))
          .allSatisfy(
              r -> {
                assertBlocked(r, "java.sql.SQLTransientConnectionException");
                assertThat(r.get("phase")).isEqualTo("connect");
              });
    }
  }

  private ForkedApp fork(String name, String rules) {
    return ForkedApp.of(TomcatApp.class)
        .jdk(Jdk.require(jdk()))
        .rules(RulesFile.write(name, rules))
        .name(name)
        .start();
  }

  private static void assertBlocked(Reply r, String exceptionClass) {
    assertThat(r.get("class")).as(r.raw()).isEqualTo(exceptionClass);
    assertThat(r.get("sqlState")).as(r.raw()).isEqualTo("53000");
    assertThat(r.get("message")).as(r.raw()).startsWith("levee:");
  }

  private List<Reply> repeat(int count, String statement) {
    return IntStream.range(0, count).mapToObj(i -> sql(client, statement)).toList();
  }

  protected Reply sql(String statement) {
    return sql(client, statement);
  }

  private Reply sql(AppClient c, String statement, String... extra) {
    return Reply.parse(c.get(query(statement) + String.join("", extra)).body());
  }

  private String query(String statement) {
    return "/jdbc?db=" + db() + "&pool=" + pool() + "&sql=" + AppClient.encode(statement);
  }
}
