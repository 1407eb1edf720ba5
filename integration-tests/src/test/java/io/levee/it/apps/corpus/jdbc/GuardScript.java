package io.levee.it.apps.corpus.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Two SELECTs on the combination's guard table, one right after the other, by a {@code Statement}
 * and by a {@code PreparedStatement}: the one that a rate limit with a burst of 1 lets through and
 * the one it blocks (the enforcing run's rules limit exactly these). In every other run both simply
 * return the table's one row.
 */
final class GuardScript {
  private GuardScript() {}

  static void run(Connections connections, Database db, String g, Out out) throws SQLException {
    try (Connection c = connections.get();
        Statement s = c.createStatement()) {
      for (String drop : db.dropTable(g)) {
        s.execute(drop);
      }
      s.executeUpdate("CREATE TABLE " + g + " (id INT PRIMARY KEY, name VARCHAR(40))");
      s.executeUpdate("INSERT INTO " + g + " VALUES (1, 'only')");
    }
    try (Connection c = connections.get();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, name FROM " + g)) {
      out.put("guard first", rows(rs));
    } catch (SQLException e) {
      out.put("guard first", "blocked " + Out.chain(e));
    }
    try (Connection c = connections.get();
        PreparedStatement p = c.prepareStatement("SELECT id, name FROM " + g + " WHERE id = ?")) {
      p.setInt(1, 1);
      try (ResultSet rs = p.executeQuery()) {
        out.put("guard second", rows(rs));
      }
    } catch (SQLException e) {
      out.put("guard second", "blocked " + Out.chain(e));
    }
    try (Connection c = connections.get();
        Statement s = c.createStatement()) {
      for (String drop : db.dropTable(g)) {
        s.execute(drop);
      }
    }
  }

  private static String rows(ResultSet rs) throws SQLException {
    int rows = 0;
    while (rs.next()) {
      rows++;
    }
    return rows + " row(s)";
  }
}
