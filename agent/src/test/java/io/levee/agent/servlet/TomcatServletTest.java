package io.levee.agent.servlet;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Levee;
import java.io.IOException;
import java.nio.file.Files;
import javax.servlet.AsyncContext;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/** javax.servlet 4 on embedded Tomcat 9. */
class TomcatServletTest extends ServletContractTest {
  private Tomcat tomcat;

  @Override
  int start() throws Exception {
    tomcat = new Tomcat();
    tomcat.setBaseDir(Files.createTempDirectory("tomcat").toString());
    tomcat.setPort(0);
    Context context = tomcat.addContext("/app", null);

    FilterDef filter = new FilterDef();
    filter.setFilterName("counting");
    filter.setFilter(new CountingFilter());
    filter.setAsyncSupported("true");
    context.addFilterDef(filter);
    FilterMap mapping = new FilterMap();
    mapping.setFilterName("counting");
    mapping.addURLPattern("/*");
    context.addFilterMap(mapping);

    add(context, "/hello", new HelloServlet());
    add(context, "/forward", new ForwardServlet());
    add(context, "/async", new AsyncServlet());
    add(context, "/fail", new FailServlet());
    add(context, "/refused", new RefusedServlet());
    tomcat.getConnector();
    tomcat.start();
    return tomcat.getConnector().getLocalPort();
  }

  @Override
  void stop() throws Exception {
    tomcat.stop();
    tomcat.destroy();
  }

  private static void add(Context context, String path, HttpServlet servlet) {
    Tomcat.addServlet(context, path, servlet).setAsyncSupported(true);
    context.addServletMappingDecoded(path, path);
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
