package io.levee.soak;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The soak's sender against real servers: both kinds of body, errors, connections closed under it.
 */
class SoakHttpTest {
  private HttpServer server;
  private final List<String> tenants = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/fixed",
        x -> {
          tenants.add(String.valueOf(x.getRequestHeaders().getFirst("X-Tenant-ID")));
          byte[] body = "fixed body".getBytes(StandardCharsets.UTF_8);
          x.sendResponseHeaders(200, body.length);
          try (OutputStream out = x.getResponseBody()) {
            out.write(body);
          }
        });
    server.createContext(
        "/chunked",
        x -> {
          x.sendResponseHeaders(200, 0);
          try (OutputStream out = x.getResponseBody()) {
            out.write("first,".getBytes(StandardCharsets.UTF_8));
            out.flush();
            out.write("second".getBytes(StandardCharsets.UTF_8));
          }
        });
    server.createContext(
        "/busy",
        x -> {
          byte[] body = "too busy".getBytes(StandardCharsets.UTF_8);
          x.sendResponseHeaders(503, body.length);
          try (OutputStream out = x.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private record Result(int status, String body, IOException error, boolean timeout) {}

  private static Result get(SoakHttp http, String path, String tenant) throws Exception {
    CompletableFuture<Result> done = new CompletableFuture<>();
    http.submit(
        path,
        tenant,
        (status, body, error, timeout) -> done.complete(new Result(status, body, error, timeout)));
    return done.get(10, TimeUnit.SECONDS);
  }

  @Test
  void readsFixedLengthAndChunkedBodiesOverOneKeptConnection() throws Exception {
    try (SoakHttp http = new SoakHttp("127.0.0.1", server.getAddress().getPort(), 1)) {
      assertThat(get(http, "/fixed", "tenant-3"))
          .isEqualTo(new Result(200, "fixed body", null, false));
      assertThat(get(http, "/chunked", null))
          .isEqualTo(new Result(200, "first,second", null, false));
      assertThat(get(http, "/fixed", null).body()).isEqualTo("fixed body");
      assertThat(tenants).containsExactly("tenant-3", "null");
      assertThat(http.outstanding()).isZero();
    }
  }

  @Test
  void anErrorStatusIsAnAnswerWithItsBody() throws Exception {
    try (SoakHttp http = new SoakHttp("127.0.0.1", server.getAddress().getPort(), 2)) {
      assertThat(get(http, "/busy", null)).isEqualTo(new Result(503, "too busy", null, false));
    }
  }

  @Test
  void noServerIsAnErrorNotATimeout() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    try (SoakHttp http = new SoakHttp("127.0.0.1", port, 1)) {
      Result r = get(http, "/fixed", null);
      assertThat(r.status()).isZero();
      assertThat(r.error()).isNotNull();
      assertThat(r.timeout()).isFalse();
    }
  }

  @Test
  void aServerThatClosesAnIdleConnectionCostsNoRequest() throws Exception {
    // A raw server that answers one request per connection and then closes it without saying so,
    // as a server does when its keep-alive timeout ends between two requests.
    try (ServerSocket raw = new ServerSocket(0)) {
      Thread t =
          new Thread(
              () -> {
                while (!raw.isClosed()) {
                  try (Socket c = raw.accept()) {
                    c.getInputStream().read(new byte[4096]);
                    c.getOutputStream()
                        .write(
                            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
                                .getBytes(StandardCharsets.ISO_8859_1));
                    c.getOutputStream().flush();
                  } catch (IOException e) {
                    return;
                  }
                }
              });
      t.setDaemon(true);
      t.start();
      try (SoakHttp http = new SoakHttp("127.0.0.1", raw.getLocalPort(), 1)) {
        for (int i = 0; i < 3; i++) {
          assertThat(get(http, "/x", null)).isEqualTo(new Result(200, "ok", null, false));
        }
      }
    }
  }
}
