package io.levee.load.app;

import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code GET /bench/limit}: the contender's current limit (-1 when it has none to read); {@code GET
 * /bench/static?limit=N}: moves the static limit, for calibration.
 */
final class BenchControl extends HttpServlet {
  private final Contenders.Built built;

  BenchControl(Contenders.Built built) {
    this.built = built;
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String path = req.getPathInfo() == null ? "" : req.getPathInfo();
    if (path.equals("/static") && built.staticFilter() != null) {
      built.staticFilter().setLimit(Integer.parseInt(req.getParameter("limit")));
    } else if (!path.equals("/limit")) {
      resp.sendError(404);
      return;
    }
    resp.setContentType("text/plain");
    resp.getWriter().print(built.limit().getAsInt());
  }
}
