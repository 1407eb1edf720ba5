package io.levee.it.apps;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * {@code /jdbc?db=h2|pg&pool=none|hikari&mode=prepared|statement|call&sql=...}: one statement on a
 * fresh (or pooled) connection, as a {@link PreparedStatement} (the default), a plain {@link
 * Statement} or a {@link CallableStatement}. Answers {@code outcome=ok} with the first column of
 * the first row, or the exception with its SQLState and the {@code phase} it failed in ({@code
 * connect} or {@code execute}).
 */
public final class JdbcCalls {
  private JdbcCalls() {}

  public static String handle(Map<String, String> q) {
    Lines out = new Lines();
    long start = System.nanoTime();
    Connection connection;
    try {
      connection = Databases.connect(q.getOrDefault("db", "h2"), q.getOrDefault("pool", "none"));
    } catch (SQLException | RuntimeException e) {
      return out.exception(e).put("phase", "connect").toString();
    }
    try (Connection c = connection) {
      String sql = q.get("sql");
      out.put("outcome", "ok").put("value", execute(c, sql, q.getOrDefault("mode", "prepared")));
    } catch (SQLException | RuntimeException e) {
      out.exception(e).put("phase", "execute");
    }
    return out.put("elapsedMs", (System.nanoTime() - start) / 1_000_000).toString();
  }

  private static String execute(Connection c, String sql, String mode) throws SQLException {
    if (mode.equals("statement")) {
      try (Statement statement = c.createStatement()) {
        return result(statement, statement.execute(sql));
      }
    }
    if (mode.equals("call")) {
      try (CallableStatement statement = c.prepareCall(sql)) {
        return result(statement, statement.execute());
      }
    }
    try (PreparedStatement statement = c.prepareStatement(sql)) {
      return result(statement, statement.execute());
    }
  }

  private static String result(Statement statement, boolean hasRows) throws SQLException {
    if (!hasRows) {
      return "updated " + statement.getUpdateCount();
    }
    try (ResultSet rows = statement.getResultSet()) {
      return rows.next() ? String.valueOf(rows.getString(1)) : "no rows";
    }
  }
}
