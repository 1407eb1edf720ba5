package corpus.webapp.ee8;

import java.io.IOException;
import java.io.PrintWriter;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The corpus webapp's plain servlet: echoes what it was asked (parameters of a query or a form, a
 * header, what the filter left), opens a session on request, or forwards to the JSP.
 */
public class GreetingServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    if ("jsp".equals(request.getParameter("view"))) {
      request.getRequestDispatcher("/hello.jsp").forward(request, response);
      return;
    }
    boolean session = request.getParameter("session") != null;
    response.setContentType("text/plain;charset=UTF-8");
    PrintWriter out = response.getWriter();
    out.println("Hello, " + request.getParameter("name") + "!");
    out.println("method " + request.getMethod() + ", path " + request.getServletPath());
    out.println("filter " + request.getAttribute("stamp"));
    out.println("header " + request.getHeader("X-Corpus"));
    if (session) {
      out.println("session new " + request.getSession(true).isNew());
    }
  }
}
