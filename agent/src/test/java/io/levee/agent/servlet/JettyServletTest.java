package io.levee.agent.servlet;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Levee;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** jakarta.servlet 6 on embedded Jetty 12 (ee10). */
class JettyServletTest extends ServletContractTest {
  private Server server;

  @Override
  int start() throws Exception {
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/app");
    FilterHolder filter = new FilterHolder(new CountingFilter());
    filter.setAsyncSupported(true);
    context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
    add(context, "/hello", new HelloServlet());
    add(context, "/forward", new ForwardServlet());
    add(context, "/async", new AsyncServlet());
    add(context, "/fail", new FailServlet());
    add(context, "/refused", new RefusedServlet());
    server.setHandler(context);
    server.start();
    return connector.getLocalPort();
  }

  @Override
  void stop() throws Exception {
    server.stop();
  }

  private static void add(ServletContextHandler context, String path, HttpServlet servlet) {
    ServletHolder holder = new ServletHolder(servlet);
    holder.setAsyncSupported(true);
    context.addServlet(holder, path);
  }

  static final class CountingFilter implements Filter {
    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
        throws IOException, ServletException {
      filterRuns.incrementAndGet();
      chain.doFilter(request, response);
    }
  }

  static final class HelloServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      servletRuns.incrementAndGet();
      resp.getWriter().write("hello");
    }
  }

  static final class ForwardServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp)
        throws IOException, ServletException {
      servletRuns.incrementAndGet();
      req.getRequestDispatcher("/hello").forward(req, resp);
    }
  }

  static final class AsyncServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
      servletRuns.incrementAndGet();
      AsyncContext async = req.startAsync();
      new Thread(
              () -> {
                sleepQuietly(50);
                try {
                  ((HttpServletResponse) async.getResponse()).setStatus(202);
                  async.getResponse().getWriter().write("accepted");
                } catch (IOException e) {
                  throw new IllegalStateException(e);
                }
                async.complete();
              })
          .start();
    }
  }

  static final class FailServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
      servletRuns.incrementAndGet();
      throw new IllegalStateException("boom");
    }
  }

  /** Makes a statement, and then, if Levee refused it, does what {@code ?then=} says. */
  static final class RefusedServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      servletRuns.incrementAndGet();
      boolean refused = Levee.jdbcEnter("jdbc:test", "select 1") instanceof Blocked;
      String then = req.getParameter("then");
      if (refused && "throw".equals(then)) {
        throw new IllegalStateException("statement refused");
      }
      if (refused && "error".equals(then)) {
        throw new LinkageError("the JVM's trouble");
      }
      if (refused && ("status".equals(then) || "commit".equals(then))) {
        resp.setStatus(500);
        resp.getWriter().write("application error");
        if ("commit".equals(then)) {
          resp.flushBuffer();
        }
        return;
      }
      if (refused && "send-error".equals(then)) {
        resp.sendError(500);
        return;
      }
      resp.getWriter().write(refused ? "degraded" : "fine");
    }
  }
}
