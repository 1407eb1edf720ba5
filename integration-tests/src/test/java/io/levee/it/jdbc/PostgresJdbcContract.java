package io.levee.it.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.Reply;
import org.junit.jupiter.api.Test;

/** The JDBC contract, and what only a real database server shows. */
abstract class PostgresJdbcContract extends JdbcContract {
  @Override
  protected final String db() {
    return "pg";
  }

  /**
   * {@code timeouts: { query: 1s }} on a statement that set none: PostgreSQL cancels it when the
   * driver's timer fires, a second after it began, long before its ten-second sleep ends. (H2 runs
   * {@code pg_sleep} as a Java method, which its cancel cannot stop: the agent's own tests cover
   * the timeout being set there.)
   */
  @Test
  void cancelsAStatementAtTheQueryTimeoutTheRuleSets() {
    Reply r = sql("SELECT pg_sleep(10) AS bounded_sleep");
    assertThat(r.get("sqlState")).as(r.raw()).isEqualTo("57014");
    assertThat(r.get("phase")).as(r.raw()).isEqualTo("execute");
    // at least the timeout (the elapsed time also holds the connect), and well short of the sleep
    assertThat(r.number("elapsedMs")).as(r.raw()).isBetween(1_000L, 5_000L);
  }
}
