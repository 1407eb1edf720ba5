package io.levee.it.apps.workload;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * {@code /run?kind=jdbc&calls=&threads=&mix=&distinct=}: statements on an in-memory H2 database,
 * each thread on its own {@link DriverManager} connection, replaced every 100 calls so that
 * connecting is part of the load. Modes:
 *
 * <ul>
 *   <li>{@code select}: a prepared query on {@code items}, result and statement closed;
 *   <li>{@code plain}: the same as a plain statement with the id inlined;
 *   <li>{@code blocked}: a prepared query on {@code audit}, which the rules refuse;
 *   <li>{@code bad}: a plain statement on a table that does not exist, an exception;
 *   <li>{@code unclosed}: a prepared query whose statement and result are never closed.
 * </ul>
 *
 * With {@code distinct=true} every statement inlines its call number, so every SQL text is new.
 */
final class JdbcWorkload {
  private static final String URL = "jdbc:h2:mem:workload;DB_CLOSE_DELAY=-1";
  private static final ThreadLocal<Session> SESSIONS = new ThreadLocal<>();
  private static final Queue<Session> OPEN = new ConcurrentLinkedQueue<>();

  private JdbcWorkload() {}

  static String run(Map<String, String> q) throws InterruptedException {
    createTables();
    boolean distinct = Boolean.parseBoolean(q.get("distinct"));
    try {
      return new Mix(q.get("mix"))
          .run(
              Long.parseLong(q.get("calls")),
              Integer.parseInt(q.getOrDefault("threads", "2")),
              (mode, i) -> call(session().connection(), mode, i, distinct));
    } finally {
      // The workload's threads are gone, but H2 keeps an unclosed connection's session forever.
      for (Session s; (s = OPEN.poll()) != null; ) {
        s.close();
      }
    }
  }

  private static String call(Connection c, String mode, long i, boolean distinct)
      throws SQLException {
    long id = i % 100;
    String literal = distinct ? " AND " + i + " = " + i : "";
    switch (mode) {
      case "plain":
        try (Statement s = c.createStatement();
            ResultSet r = s.executeQuery("SELECT name FROM items WHERE id = " + id + literal)) {
          return r.next() ? "ok" : "empty";
        }
      case "blocked":
        return query(c, "SELECT note FROM audit WHERE id = ?" + literal, id);
      case "bad":
        // plain, so that the driver finds the table missing when it executes, not when it prepares
        try (Statement s = c.createStatement()) {
          return s.execute("SELECT name FROM missing_table WHERE id = " + id + literal) ? "ok" : "";
        }
      case "unclosed":
        PreparedStatement p = c.prepareStatement("SELECT name FROM items WHERE id = ?" + literal);
        p.setLong(1, id);
        return p.executeQuery().next() ? "ok" : "empty";
      default:
        return query(c, "SELECT name FROM items WHERE id = ?" + literal, id);
    }
  }

  private static String query(Connection c, String sql, long id) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      p.setLong(1, id);
      try (ResultSet r = p.executeQuery()) {
        return r.next() ? "ok" : "empty";
      }
    }
  }

  private static Session session() throws SQLException {
    Session s = SESSIONS.get();
    if (s == null || s.uses++ >= 100) {
      if (s != null) {
        s.close();
        OPEN.remove(s);
      }
      s = new Session(DriverManager.getConnection(URL, "sa", ""));
      OPEN.add(s);
      SESSIONS.set(s);
    }
    return s;
  }

  private static boolean created;

  // Once per JVM: the audit table is behind a 1/s rate limit, so a second CREATE within a second
  // of the first would be refused like any other call to it.
  private static synchronized void createTables() {
    if (created) {
      return;
    }
    try (Connection c = DriverManager.getConnection(URL, "sa", "");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS items (id BIGINT PRIMARY KEY, name VARCHAR(40))");
      s.execute("CREATE TABLE IF NOT EXISTS audit (id BIGINT PRIMARY KEY, note VARCHAR(40))");
      s.execute("MERGE INTO items KEY (id) SELECT X, 'item ' || X FROM SYSTEM_RANGE(0, 99)");
      created = true;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A thread's connection and how many calls it has served. */
  private static final class Session {
    private final Connection connection;
    int uses;

    Session(Connection connection) {
      this.connection = connection;
    }

    Connection connection() {
      return connection;
    }

    void close() {
      try {
        connection.close();
      } catch (SQLException e) {
        // already gone
      }
    }
  }
}
