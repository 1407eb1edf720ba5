package io.levee.agent.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local HTTP server: {@code /status/N} answers status N with body {@code "status N"}; counts
 * requests.
 */
public final class TestServer implements AutoCloseable {
  public final AtomicInteger requests = new AtomicInteger();
  private final HttpServer server;

  public TestServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/status/",
        exchange -> {
          requests.incrementAndGet();
          try (InputStream in = exchange.getRequestBody()) {
            in.readAllBytes();
          }
          String path = exchange.getRequestURI().getPath();
          int status = Integer.parseInt(path.substring(path.lastIndexOf('/') + 1));
          byte[] body = ("status " + status).getBytes(StandardCharsets.UTF_8);
          boolean head = "HEAD".equals(exchange.getRequestMethod());
          exchange.sendResponseHeaders(status, head ? -1 : body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            if (!head) {
              out.write(body);
            }
          }
        });
    server.start();
  }

  public String url(int status) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/status/" + status;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
