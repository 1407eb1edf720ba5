package io.levee.it.apps.corpus.jdbc;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.Arrays;

/**
 * The fixed script of plain JDBC calls every pool and {@code DriverManager} combination runs: DDL,
 * statements and prepared statements, both kinds of batch, a stored routine, a transaction rolled
 * back and one committed, and two statements that fail on purpose. Each step borrows its own
 * connection, as an application's unit of work does, so the pool lends and takes back all along.
 */
final class JdbcScript {
  private static final String MISSING = "corpus_missing_table";

  private final Connections connections;
  private final Database db;
  private final String t;
  private final Out out;

  JdbcScript(Connections connections, Database db, String table, Out out) {
    this.connections = connections;
    this.db = db;
    this.t = table;
    this.out = out;
  }

  void run() throws SQLException {
    try (Connection c = connections.get();
        Statement s = c.createStatement()) {
      for (String drop : db.dropTable(t)) {
        s.execute(drop);
      }
      out.put(
          "create",
          s.executeUpdate(
              "CREATE TABLE " + t + " (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, qty INT)"));
      out.put("insert", s.executeUpdate("INSERT INTO " + t + " VALUES (1, 'apple', 3)"));
    }
    try (Connection c = connections.get();
        PreparedStatement p = c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?, ?)")) {
      bind(p, 2, "pear", 5);
      out.put("prepared insert", p.executeUpdate());
      bind(p, 3, "plum", 7);
      p.addBatch();
      bind(p, 4, "fig", 2);
      p.addBatch();
      bind(p, 5, "lime", 9);
      p.addBatch();
      out.put("prepared batch", Arrays.toString(p.executeBatch()));
    }
    try (Connection c = connections.get();
        Statement s = c.createStatement()) {
      s.addBatch("UPDATE " + t + " SET qty = qty + 10 WHERE id = 4");
      s.addBatch("INSERT INTO " + t + " VALUES (6, 'kiwi', 1)");
      out.put("statement batch", Arrays.toString(s.executeBatch()));
      select(s, "SELECT id, name, qty FROM " + t + " ORDER BY id");
      out.put("update", s.executeUpdate("UPDATE " + t + " SET qty = qty * 2 WHERE qty < 5"));
      boolean rows = s.execute("DELETE FROM " + t + " WHERE id = 6");
      out.put("execute delete", rows + ", update count " + s.getUpdateCount());
    }
    try (Connection c = connections.get();
        PreparedStatement p =
            c.prepareStatement("SELECT name FROM " + t + " WHERE qty > ? ORDER BY name")) {
      p.setInt(1, 6);
      try (ResultSet rs = p.executeQuery()) {
        out.put("prepared select", names(rs));
      }
    }
    callRoutine();
    transactions();
    failures();
    try (Connection c = connections.get();
        Statement s = c.createStatement()) {
      select(s, "SELECT id, name, qty FROM " + t + " ORDER BY id");
      for (String drop : db.dropTable(t)) {
        s.execute(drop);
      }
    }
  }

  private void callRoutine() throws SQLException {
    Database.Routine routine = db.routine(t + "_twice");
    if (routine == null) {
      out.put("callable", "no stored routines in " + db.id);
      return;
    }
    try (Connection c = connections.get()) {
      try (Statement s = c.createStatement()) {
        for (String sql : routine.create()) {
          s.execute(sql);
        }
      }
      try (CallableStatement call = c.prepareCall(routine.call())) {
        call.setInt(routine.in(), 21);
        call.registerOutParameter(routine.out(), Types.INTEGER);
        call.execute();
        out.put("callable", call.getInt(routine.out()));
      }
      try (Statement s = c.createStatement()) {
        for (String sql : routine.drop()) {
          s.execute(sql);
        }
      }
    }
  }

  private void transactions() throws SQLException {
    try (Connection c = connections.get()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        out.put(
            "in transaction insert",
            s.executeUpdate("INSERT INTO " + t + " VALUES (7, 'date', 4)"));
        out.put("in transaction count", count(s));
        c.rollback();
        out.put("after rollback count", count(s));
        out.put("in transaction delete", s.executeUpdate("DELETE FROM " + t + " WHERE id = 1"));
        c.commit();
        out.put("after commit count", count(s));
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  private void failures() throws SQLException {
    try (Connection c = connections.get();
        Statement s = c.createStatement()) {
      try {
        s.executeQuery("SELECT id FROM " + MISSING);
        out.put("missing table", "no exception");
      } catch (SQLException e) {
        out.put("missing table", Out.chain(e));
      }
      try {
        s.executeUpdate("INSERT INTO " + t + " VALUES (2, 'pear again', 1)");
        out.put("duplicate key", "no exception");
      } catch (SQLException e) {
        out.put("duplicate key", Out.chain(e));
      }
      out.put("count after failures", count(s));
    }
  }

  private void select(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      ResultSetMetaData meta = rs.getMetaData();
      StringBuilder columns = new StringBuilder();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        columns.append(i == 1 ? "" : ", ").append(meta.getColumnLabel(i));
      }
      out.put("columns", columns);
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          Object value = rs.getObject(i);
          row.append(i == 1 ? "" : " ")
              .append(value)
              .append(':')
              .append(value == null ? "null" : value.getClass().getSimpleName());
        }
        out.put("row", row);
      }
    }
  }

  private int count(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + t)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static String names(ResultSet rs) throws SQLException {
    StringBuilder names = new StringBuilder();
    while (rs.next()) {
      names.append(names.length() == 0 ? "" : ", ").append(rs.getString(1));
    }
    return names.toString();
  }

  private static void bind(PreparedStatement p, int id, String name, int qty) throws SQLException {
    p.setInt(1, id);
    p.setString(2, name);
    p.setInt(3, qty);
  }
}
