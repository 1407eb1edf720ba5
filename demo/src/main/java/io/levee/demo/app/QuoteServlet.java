package io.levee.demo.app;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code GET /api/quote}: asks the pricing partner for a price with {@code HttpURLConnection} and
 * passes its answer on. Like much old code it sets no timeout, so a partner that hangs holds a
 * request thread for as long as the partner likes.
 */
final class QuoteServlet extends HttpServlet {
  private final String partner;

  QuoteServlet(String partner) {
    this.partner = partner;
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String sku = req.getParameter("sku") != null ? req.getParameter("sku") : "A-100";
    HttpURLConnection c =
        (HttpURLConnection) new URL(partner + "/partner/price?sku=" + sku).openConnection();
    try {
      int status = c.getResponseCode();
      InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream();
      String body = in == null ? "" : read(in);
      if (status >= 400) {
        Responses.json(resp, 502, "{\"error\":\"partner\",\"status\":" + status + "}");
        return;
      }
      Responses.json(
          resp, 200, "{\"sku\":\"" + Responses.escape(sku) + "\",\"quote\":" + body + "}");
    } catch (IOException e) {
      Responses.json(
          resp,
          502,
          "{\"error\":\"partner\",\"detail\":\"" + Responses.escape(e.getMessage()) + "\"}");
    } finally {
      c.disconnect();
    }
  }

  private static String read(InputStream in) throws IOException {
    try (in) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toString(StandardCharsets.UTF_8);
    }
  }
}
