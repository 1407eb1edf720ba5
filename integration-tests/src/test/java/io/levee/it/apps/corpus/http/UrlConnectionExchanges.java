package io.levee.it.apps.corpus.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.List;
import java.util.Map;

/** The JDK's {@code HttpURLConnection}, as most legacy code calls a partner. */
public final class UrlConnectionExchanges extends ClientExchanges {
  public static void main(String[] args) throws Exception {
    new UrlConnectionExchanges().run();
  }

  @Override
  protected Answer exchange(String method, String url, byte[] body) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
    c.setRequestMethod(method);
    if (body != null) {
      c.setDoOutput(true);
      try (OutputStream out = c.getOutputStream()) {
        out.write(body);
      }
    }
    int status = c.getResponseCode();
    Map<String, List<String>> headers = c.getHeaderFields();
    InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
    byte[] bytes = in == null ? new byte[0] : in.readAllBytes();
    if (in != null) {
      in.close();
    }
    return new Answer(status, headers, bytes);
  }
}
