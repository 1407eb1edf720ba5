package corpus.webapp.ee10;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The corpus webapp's async servlet: answers from a container thread after the request thread has
 * returned, or dispatches to the JSP, as the {@code dispatch} parameter asks.
 */
public class LaterServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) {
    AsyncContext async = request.startAsync();
    if (request.getParameter("dispatch") != null) {
      async.dispatch("/hello.jsp");
      return;
    }
    async.start(
        () -> {
          try {
            response.setContentType("text/plain;charset=UTF-8");
            response.getWriter().println("later, " + request.getAttribute("stamp"));
          } catch (IOException e) {
            response.setStatus(500);
          } finally {
            async.complete();
          }
        });
  }
}
