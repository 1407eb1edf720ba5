package io.levee.demo.app;

import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code GET /api/compute?rounds=N}: pure CPU work (N rounds of SHA-256 over a small buffer), like a
 * pricing engine or a PDF renderer. Under more of it than the cores can do, every request waits.
 */
final class ComputeServlet extends HttpServlet {
  private static final int DEFAULT_ROUNDS = 60_000;

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String param = req.getParameter("rounds");
    int rounds = param != null ? Math.min(Integer.parseInt(param), 10_000_000) : DEFAULT_ROUNDS;
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
