package io.levee.demo.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import javax.servlet.http.HttpServletResponse;

/** How the servlets answer: JSON bodies, and the usual mapping of database trouble to a status. */
final class Responses {
  private Responses() {}

  static void json(HttpServletResponse resp, int status, String body) throws IOException {
    resp.setStatus(status);
    resp.setContentType("application/json");
    resp.setCharacterEncoding("UTF-8");
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    resp.setContentLength(bytes.length);
    resp.getOutputStream().write(bytes);
  }

  /**
   * A transient failure (pool exhausted, database busy) is worth a retry: 503; anything else 500.
   */
  static void databaseError(HttpServletResponse resp, SQLException e) throws IOException {
    int status = e instanceof SQLTransientException ? 503 : 500;
    json(resp, status, "{\"error\":\"database\",\"detail\":\"" + escape(e.getMessage()) + "\"}");
  }

  static String escape(String text) {
    return text == null ? "" : text.replace("\\", "\\\\").replace("\"", "\\\"").replace('\n', ' ');
  }
}
