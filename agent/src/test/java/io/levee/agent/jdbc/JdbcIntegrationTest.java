package io.levee.agent.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.levee.agent.testing.RecordingDispatcher;
import io.levee.agent.testing.RecordingDispatcher.Decision;
import io.levee.agent.testing.RecordingDispatcher.TestPermit;
import io.levee.agent.testing.TestAgent;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.jdbc.JdbcState;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class JdbcIntegrationTest {
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private RecordingDispatcher dispatcher;
  private String url;

  /** H2's getMetaData().getURL(), which statements are decided on, leaves the settings out. */
  private String statementUrl;

  @BeforeAll
  static void installAgent() {
    TestAgent.install(new JdbcIntegration());
  }

  @BeforeEach
  void setUp() throws Exception {
    statementUrl = "jdbc:h2:mem:levee" + DATABASES.incrementAndGet();
    url = statementUrl + ";DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE orders (id INT PRIMARY KEY, total INT)");
    }
    dispatcher = new RecordingDispatcher();
    Levee.install(dispatcher);
  }

  @AfterEach
  void tearDown() {
    Levee.install(null);
    assertThat(TestAgent.errors()).isEmpty();
    assertThat(dispatcher.internalErrors).isEmpty();
  }

  @Test
  void decidesStatementOnItsSqlAndTheConnectionUrl() throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      dispatcher.decisions.clear();
      dispatcher.outcomes.clear();
      s.executeUpdate("INSERT INTO orders VALUES (1, 10)");
    }
    assertThat(dispatcher.onThisThread("jdbc"))
        .extracting(Decision::first, Decision::second)
        .containsExactly(tuple(statementUrl, "INSERT INTO orders VALUES (1, 10)"));
    assertThat(dispatcher.outcomesOnThisThread()).hasSize(1);
  }

  @Test
  void decidesPreparedStatementOnTheSqlItWasPreparedWith() throws Exception {
    String sql = "SELECT total FROM orders WHERE id = ?";
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setInt(1, 1);
      dispatcher.decisions.clear();
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isFalse();
      }
    }
    assertThat(sqlOfDecisions()).containsExactly(sql);
  }

  @Test
  void remembersNoSqlWhereNoRuleReadsIt() throws Exception {
    dispatcher.readsSql(false);
    String sql = "SELECT total FROM orders WHERE id = ?";
    try (Connection c = DriverManager.getConnection(url)) {
      // The connection's URL is learned at its first statement.
      try (Statement s = c.createStatement()) {
        s.execute("SELECT 1");
      }
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        assertThat(JdbcState.SQL.get(ps)).isNull();
        ps.setInt(1, 1);
        dispatcher.decisions.clear();
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).isFalse();
        }
      }
      dispatcher.readsSql(true);
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        assertThat(JdbcState.SQL.get(ps)).isEqualTo(sql);
        ps.setInt(1, 1);
        ps.executeQuery().close();
      }
    }
    assertThat(dispatcher.onThisThread("jdbc"))
        .extracting(Decision::first, Decision::second)
        .containsExactly(tuple(statementUrl, null), tuple(statementUrl, sql));
  }

  @Test
  void decidesBatchOnceOnItsFirstSql() throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.addBatch("INSERT INTO orders VALUES (1, 10)");
      s.addBatch("INSERT INTO orders VALUES (2, 20)");
      dispatcher.decisions.clear();
      s.executeBatch();
      s.execute("DELETE FROM orders");
    }
    assertThat(sqlOfDecisions())
        .containsExactly("INSERT INTO orders VALUES (1, 10)", "DELETE FROM orders");
  }

  @Test
  void decidesPreparedBatchOnThePreparedSql() throws Exception {
    String sql = "INSERT INTO orders VALUES (?, ?)";
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < 3; i++) {
        ps.setInt(1, i);
        ps.setInt(2, i * 10);
        ps.addBatch();
      }
      dispatcher.decisions.clear();
      assertThat(ps.executeBatch()).hasSize(3);
    }
    assertThat(sqlOfDecisions()).containsExactly(sql);
  }

  @Test
  void decidesOncePerCallThroughHikariProxies() throws Exception {
    try (HikariDataSource pool = hikari()) {
      String sql = "SELECT COUNT(*) FROM orders";
      try (Connection c = pool.getConnection();
          PreparedStatement ps = c.prepareStatement(sql);
          Statement s = c.createStatement()) {
        dispatcher.decisions.clear();
        dispatcher.outcomes.clear();
        ps.executeQuery().close();
        s.executeUpdate("INSERT INTO orders VALUES (7, 70)");
      }
      assertThat(dispatcher.onThisThread("jdbc"))
          .extracting(Decision::first, Decision::second)
          .containsExactly(tuple(url, sql), tuple(url, "INSERT INTO orders VALUES (7, 70)"));
      assertThat(dispatcher.outcomesOnThisThread()).hasSize(2);
    }
  }

  @Test
  void knowsTheUrlOfABorrowedConnectionWithoutAskingItsMetaData() throws Exception {
    try (HikariDataSource pool = hikari();
        Connection c = pool.getConnection()) {
      assertThat(JdbcState.URL.get(c)).isEqualTo(url);
      try (Statement s = c.createStatement()) {
        dispatcher.decisions.clear();
        s.executeQuery("SELECT COUNT(*) FROM orders").close();
      }
      assertThat(dispatcher.onThisThread("jdbc")).extracting(Decision::first).containsExactly(url);
    }
  }

  @Test
  void decidesConnectThroughDriverManager() throws Exception {
    try (Connection c = DriverManager.getConnection(url)) {
      assertThat(c.isValid(1)).isTrue();
    }
    assertThat(dispatcher.onThisThread("connect")).extracting(Decision::first).containsExactly(url);
    assertThat(dispatcher.outcomesOnThisThread()).hasSize(1);
  }

  @Test
  void decidesConnectOnceAtTheHikariDataSource() throws Exception {
    try (HikariDataSource pool = hikari()) {
      dispatcher.decisions.clear();
      try (Connection c = pool.getConnection()) {
        assertThat(c.isValid(1)).isTrue();
      }
      assertThat(dispatcher.onThisThread("connect"))
          .extracting(Decision::first)
          .containsExactly(url);
    }
  }

  @Test
  void blockedStatementThrowsSqlTransientExceptionAndNeverRuns() throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement ps = c.prepareStatement("INSERT INTO orders VALUES (?, ?)")) {
      ps.setInt(1, 1);
      ps.setInt(2, 10);
      dispatcher.outcomes.clear();
      dispatcher.blockWith(RecordingDispatcher.blocked(503, 1, "busy"));
      assertThatThrownBy(ps::executeUpdate)
          .isExactlyInstanceOf(SQLTransientException.class)
          .hasMessageStartingWith("levee:")
          .extracting(e -> ((SQLTransientException) e).getSQLState())
          .isEqualTo("53000");
      dispatcher.blockWith(null);
      try (ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM orders")) {
        rs.next();
        assertThat(rs.getInt(1)).isZero();
      }
    }
    // The count query only: a blocked call reports no outcome.
    assertThat(dispatcher.outcomes).hasSize(1);
  }

  @Test
  void blockedConnectThrowsSqlTransientConnectionException() {
    dispatcher.blockWith(RecordingDispatcher.blocked(503, 1, "busy"));
    assertThatThrownBy(() -> DriverManager.getConnection(url))
        .isInstanceOf(SQLTransientConnectionException.class)
        .extracting(e -> ((SQLTransientConnectionException) e).getSQLState())
        .isEqualTo("53000");
  }

  @Test
  void setsQueryTimeoutOnlyWhereTheApplicationLeftZero() throws Exception {
    dispatcher.admitWith(new TestPermit(7));
    List<Integer> seen = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      dispatcher.onExit(() -> seen.add(timeoutOf(s)));
      s.execute("SELECT 1");
      assertThat(s.getQueryTimeout()).isZero();
      s.setQueryTimeout(3);
      s.execute("SELECT 1");
      assertThat(s.getQueryTimeout()).isEqualTo(3);
    }
    assertThat(seen).containsExactly(7, 3);
  }

  @Test
  void reportsTheStatementsExceptionAsTheOutcome() throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      dispatcher.outcomes.clear();
      assertThatThrownBy(() -> s.execute("SELECT * FROM missing"))
          .isInstanceOf(java.sql.SQLException.class);
    }
    assertThat(dispatcher.outcomesOnThisThread())
        .singleElement()
        .satisfies(o -> assertThat(o.error()).isInstanceOf(java.sql.SQLException.class));
  }

  private List<String> sqlOfDecisions() {
    return dispatcher.onThisThread("jdbc").stream().map(Decision::second).toList();
  }

  private HikariDataSource hikari() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(2);
    config.setMinimumIdle(1);
    return new HikariDataSource(config);
  }

  private static int timeoutOf(Statement s) {
    try {
      return s.getQueryTimeout();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
