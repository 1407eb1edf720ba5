package io.levee.demo.app;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code GET /api/compute?rounds=N}: pure CPU work (N rounds of SHA-256 over a small buffer), like
 * a pricing engine or a PDF renderer. Under more of it than the cores can do, every request waits.
 * The CPU time it took is in a {@code Server-Timing} header.
 */
final class ComputeServlet extends HttpServlet {
  private static final int DEFAULT_ROUNDS = 60_000;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String param = req.getParameter("rounds");
    int rounds = param != null ? Math.min(Integer.parseInt(param), 10_000_000) : DEFAULT_ROUNDS;
    long cpuStart = THREADS.getCurrentThreadCpuTime();
    byte[] digest = new byte[32];
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (int i = 0; i < rounds; i++) {
        sha.update(digest);
        digest = sha.digest();
      }
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    long cpuNanos = THREADS.getCurrentThreadCpuTime() - cpuStart;
    resp.setHeader("Server-Timing", String.format("cpu;dur=%.3f", cpuNanos / 1e6));
    Responses.json(resp, 200, "{\"rounds\":" + rounds + ",\"digest\":\"" + hex(digest, 6) + "\"}");
  }

  private static String hex(byte[] bytes, int n) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n; i++) {
      s.append(String.format("%02x", bytes[i]));
    }
    return s.toString();
  }
}
