package io.levee.demo.app;

import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code /health} (no database) and {@code /internal/stats}: the application's own view, here the
 * most slow queries the database ran at once since the last look.
 */
final class HealthServlet extends HttpServlet {
  private final transient Database db;

  HealthServlet(Database db) {
    this.db = db;
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    if (db == null) {
      Responses.json(resp, 200, "{\"status\":\"up\"}");
      return;
    }
    Responses.json(resp, 200, "{\"slowQueriesPeak\":" + db.takePeak() + "}");
  }
}
