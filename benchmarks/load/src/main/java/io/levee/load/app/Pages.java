package io.levee.load.app;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.HttpURLConnection;
import java.net.URL;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** The three pages: CPU-bound, latency-bound, and a small realistic page (one query, one call). */
final class Pages {
  /**
   * The CPU one call to {@code /cpu} costs, a server-rendered page's worth. Heavy enough that a
   * retry storm stays within the generator's one CPU: its HTTP client costs it up to a millisecond
   * per attempt, and at 3C a server that turns most calls away draws five to seven attempts per
   * call it serves. A generator whose CPU is full charges its own queue to the server it measures
   * (docs/engineering/overload.md).
   */
  static final long CPU_WORK_NANOS = 8_000_000L;

  private static final String DB = "jdbc:h2:mem:bench;DB_CLOSE_DELAY=-1";
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final String slowUrl;
  private final String fastUrl;
  private final ThreadLocal<Connection> connections = new ThreadLocal<>();

  Pages(int stubPort) throws SQLException {
    slowUrl = "http://127.0.0.1:" + stubPort + "/slow";
    fastUrl = "http://127.0.0.1:" + stubPort + "/fast";
    try (Connection c = DriverManager.getConnection(DB);
        Statement s = c.createStatement()) {
      s.execute("create table item(id int primary key, name varchar(64), price int)");
      s.execute("insert into item select x, 'item ' || x, x * 7 from system_range(1, 1000)");
    }
  }

  HttpServlet cpu() {
    return new HttpServlet() {
      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        resp.getWriter().print(burn(CPU_WORK_NANOS));
      }
    };
  }

  HttpServlet io() {
    return new HttpServlet() {
      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        int bytes = call(slowUrl);
        resp.setStatus(bytes < 0 ? 502 : 200);
        resp.setContentType("text/plain");
        resp.getWriter().print(bytes);
      }
    };
  }

  HttpServlet page() {
    return new HttpServlet() {
      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String name;
        try {
          name = query(ThreadLocalRandom.current().nextInt(1, 1001));
        } catch (SQLException e) {
          resp.setStatus(500);
          return;
        }
        int bytes = call(fastUrl);
        resp.setStatus(bytes < 0 ? 502 : 200);
        resp.setContentType("text/plain");
        resp.getWriter().print(name + " " + bytes);
      }
    };
  }

  /**
   * Spins until this thread has used {@code nanos} of CPU, so preemption does not shorten the work.
   */
  static long burn(long nanos) {
    long end = THREADS.getCurrentThreadCpuTime() + nanos;
    long x = System.nanoTime();
    do {
      for (int i = 0; i < 2000; i++) {
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
      }
    } while (THREADS.getCurrentThreadCpuTime() < end);
    return x;
  }

  private String query(int id) throws SQLException {
    Connection c = connections.get();
    if (c == null) {
      c = DriverManager.getConnection(DB);
      connections.set(c);
    }
    try (PreparedStatement ps = c.prepareStatement("select name, price from item where id = ?")) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) + ":" + rs.getInt(2) : "-";
      }
    }
  }

  /** A blocking call whose body is read to the end, so the connection is reused (keep-alive). */
  private static int call(String url) {
    try {
      HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
      c.setConnectTimeout(5000);
      c.setReadTimeout(5000);
      int total = 0;
      try (InputStream in = c.getInputStream()) {
        byte[] buf = new byte[512];
        for (int n; (n = in.read(buf)) > 0; ) {
          total += n;
        }
      }
      return c.getResponseCode() == 200 ? total : -1;
    } catch (IOException e) {
      return -1;
    }
  }
}
