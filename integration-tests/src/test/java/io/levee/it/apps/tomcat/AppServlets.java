package io.levee.it.apps.tomcat;

import io.levee.it.apps.ApacheAsyncCalls;
import io.levee.it.apps.ApacheCalls;
import io.levee.it.apps.AppProcess;
import io.levee.it.apps.Arrivals;
import io.levee.it.apps.HttpCalls;
import io.levee.it.apps.JdbcCalls;
import io.levee.it.apps.JdkClientCalls;
import io.levee.it.apps.Libraries;
import io.levee.it.apps.OkHttpCalls;
import io.levee.it.apps.PoolCounts;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.servlet.AsyncContext;
import javax.servlet.FilterChain;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpFilter;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The shapes of a servlet application the agent must count once per request: a filter in front of
 * every servlet, a servlet that forwards, an async servlet that completes on another thread, plain
 * work (any other path), and the endpoints that make outbound calls on demand (and, in a JVM
 * started in fault mode, {@code /faults?point=} to arm one of the agent's fault points). Written
 * for javax ({@code TomcatApp}); the pom generates the jakarta copy for {@code JettyApp}.
 */
final class AppServlets {
  private AppServlets() {}

  /** On {@code /*} for REQUEST, FORWARD and ASYNC dispatches. */
  static final class PassThroughFilter extends HttpFilter {
    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse resp, FilterChain chain)
        throws IOException, ServletException {
      resp.setHeader("X-Filtered", "yes");
      chain.doFilter(req, resp);
    }
  }

  /**
   * Any path: {@code 200 ok <uri>} (or the status {@code ?status=} names), after {@code ?ms=}
   * milliseconds.
   */
  static final class WorkServlet extends HttpServlet {
    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      AppProcess.pause(query(req));
      String status = req.getParameter("status");
      if (status != null) {
        resp.setStatus(Integer.parseInt(status));
      }
      text(resp, "ok " + req.getRequestURI());
    }
  }

  /** {@code /forward/x} forwards to {@code /fwd-target/x}. */
  static final class ForwardServlet extends HttpServlet {
    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp)
        throws IOException, ServletException {
      String rest = req.getPathInfo() == null ? "" : req.getPathInfo();
      req.getRequestDispatcher("/fwd-target" + rest).forward(req, resp);
    }
  }

  /** {@code /async/*}: answers from another thread after {@code ?ms=} milliseconds. */
  static final class AsyncServlet extends HttpServlet {
    private static final ExecutorService WORKERS = Executors.newCachedThreadPool();

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) {
      Map<String, String> q = query(req);
      AsyncContext async = req.startAsync();
      async.setTimeout(60_000);
      WORKERS.execute(
          () -> {
            AppProcess.pause(q);
            try {
              text((HttpServletResponse) async.getResponse(), "async done");
            } catch (IOException e) {
              // the client went away
            }
            async.complete();
          });
    }
  }

  /**
   * {@code /http}, {@code /okhttp}, {@code /apache}, {@code /jdkhttp}, {@code /jdbc}, {@code
   * /pool}, {@code /libs} (key=value lines), {@code /arrivals} and {@code /faults}, those of them
   * its application maps.
   */
  static final class OutboundServlet extends HttpServlet {
    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      Map<String, String> q = query(req);
      switch (req.getServletPath()) {
        case "/http":
          text(resp, HttpCalls.handle(q));
          break;
        case "/okhttp":
          text(resp, OkHttpCalls.handle(q));
          break;
        case "/apache":
          text(resp, ApacheCalls.handle(q));
          break;
        case "/jdkhttp":
          text(resp, JdkClientCalls.handle(q));
          break;
        case "/apache-async":
          text(resp, ApacheAsyncCalls.handle(q));
          break;
        case "/jdbc":
          text(resp, JdbcCalls.handle(q));
          break;
        case "/pool":
          text(resp, PoolCounts.handle(q));
          break;
        case "/arrivals":
          text(resp, Arrivals.handle(q));
          break;
        case "/faults":
          text(resp, armFault(q.get("point")));
          break;
        default:
          text(resp, Libraries.handle());
      }
    }
  }

  /**
   * Arms the agent's fault point named {@code point}: the agent re-reads the property at every
   * point, but only in a JVM started in fault mode, so anywhere else this does nothing.
   */
  static String armFault(String point) {
    if (System.getProperty("levee.inject-faults") == null || point == null) {
      return "not in fault mode";
    }
    System.setProperty("levee.inject-faults", point);
    return "armed " + point;
  }

  static Map<String, String> query(ServletRequest req) {
    return AppProcess.firstValues(req.getParameterMap());
  }

  static void text(ServletResponse resp, String body) throws IOException {
    resp.setContentType("text/plain;charset=UTF-8");
    resp.getWriter().print(body);
  }
}
