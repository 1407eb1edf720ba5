package io.levee.demo.app;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code GET /api/report}: sales per region, a query that takes about {@link #QUERY_MILLIS} however
 * idle the database is, like a report that scans a large table. The pause sits in a one-row derived
 * table because H2 would call it once per row anywhere else.
 */
final class ReportServlet extends HttpServlet {
  static final int QUERY_MILLIS = 300;
  static final String SQL =
      "SELECT s.region, COUNT(*), SUM(s.amount) FROM (SELECT PAUSE(?) AS p) w"
          + " JOIN sales s ON w.p = 0 GROUP BY s.region ORDER BY s.region";

  private final transient Database db;

  ReportServlet(Database db) {
    this.db = db;
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    StringBuilder json = new StringBuilder("{\"regions\":[");
    try (Connection c = db.connect();
        PreparedStatement s = c.prepareStatement(SQL)) {
      s.setInt(1, QUERY_MILLIS);
      try (ResultSet rs = s.executeQuery()) {
        for (int n = 0; rs.next(); n++) {
          json.append(n > 0 ? "," : "")
              .append("{\"region\":\"")
              .append(rs.getString(1))
              .append("\",\"count\":")
              .append(rs.getInt(2))
              .append(",\"amount\":")
              .append(rs.getBigDecimal(3))
              .append('}');
        }
      }
    } catch (SQLException e) {
      Responses.databaseError(resp, e);
      return;
    }
    Responses.json(resp, 200, json.append("]}").toString());
  }
}
