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
 * {@code GET /api/orders}: the last orders of the tenant named by the {@code X-Tenant-ID} header.
 */
final class OrdersServlet extends HttpServlet {
  static final String SQL =
      "SELECT id, total FROM orders WHERE tenant = ? ORDER BY id DESC LIMIT 5";

  private final transient Database db;

  OrdersServlet(Database db) {
    this.db = db;
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String tenant = req.getHeader("X-Tenant-ID");
    if (tenant == null) {
      resp.sendError(400, "X-Tenant-ID is required");
      return;
    }
    StringBuilder json =
        new StringBuilder("{\"tenant\":\"").append(tenant).append("\",\"orders\":[");
    try (Connection c = db.connect();
        PreparedStatement s = c.prepareStatement(SQL)) {
      s.setString(1, tenant);
      try (ResultSet rs = s.executeQuery()) {
        for (int n = 0; rs.next(); n++) {
          json.append(n > 0 ? "," : "")
              .append("{\"id\":")
              .append(rs.getInt(1))
              .append(",\"total\":")
              .append(rs.getBigDecimal(2))
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
