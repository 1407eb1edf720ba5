package io.levee.it.apps.workload;

import io.levee.it.apps.AppProcess;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.servlet.AsyncContext;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** The servlets of {@link WorkloadApp}. */
final class WorkloadServlets {
  private WorkloadServlets() {}

  /**
   * {@code /svc/throw} throws, {@code /svc/async} completes on another thread, {@code
   * /svc/async-timeout?ms=} starts an async cycle nobody completes, so the container times it out;
   * any other path answers {@code ok}.
   */
  static final class Pages extends HttpServlet {
    private static final ExecutorService WORKERS = Executors.newFixedThreadPool(2);

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp)
        throws IOException, ServletException {
      String path = req.getRequestURI();
      if (path.equals("/svc/throw")) {
        throw new ServletException("failing on purpose");
      }
      if (path.equals("/svc/async")) {
        AsyncContext async = req.startAsync();
        WORKERS.execute(
            () -> {
              try {
                text((HttpServletResponse) async.getResponse(), "async done");
              } catch (IOException e) {
                // the client went away
              }
              async.complete();
            });
        return;
      }
      if (path.equals("/svc/async-timeout")) {
        AsyncContext async = req.startAsync();
        async.setTimeout(Long.parseLong(query(req).getOrDefault("ms", "100")));
        return;
      }
      text(resp, "ok");
    }
  }

  /** {@code /run?kind=http|jdbc&...}: a workload inside this JVM; answers its counts. */
  static final class Run extends HttpServlet {
    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      Map<String, String> q = query(req);
      try {
        text(resp, "jdbc".equals(q.get("kind")) ? JdbcWorkload.run(q) : HttpWorkload.run(q));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        resp.sendError(500, "interrupted");
      }
    }
  }

  /**
   * {@code /heap}: used heap in bytes after full collections, repeated until it stops falling, so
   * that objects reachable only through weak references and their cleaners are gone.
   */
  static final class Heap extends HttpServlet {
    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
      long used = Long.MAX_VALUE;
      for (int i = 0; i < 8; i++) {
        System.gc();
        try {
          Thread.sleep(100); // lets the reference handler and cleaners run between collections
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
        long now = memory.getHeapMemoryUsage().getUsed();
        if (i >= 3 && now >= used) {
          used = Math.min(used, now);
          break;
        }
        used = Math.min(used, now);
      }
      text(resp, "usedBytes=" + used + "\n");
    }
  }

  static Map<String, String> query(HttpServletRequest req) {
    return AppProcess.firstValues(req.getParameterMap());
  }

  static void text(HttpServletResponse resp, String body) throws IOException {
    resp.setContentType("text/plain;charset=UTF-8");
    resp.getWriter().print(body);
  }
}
