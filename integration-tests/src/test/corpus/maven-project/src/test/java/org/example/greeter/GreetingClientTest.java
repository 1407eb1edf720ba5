package org.example.greeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class GreetingClientTest {
  private HttpServer server;

  @BeforeEach
  void serve() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/greeting",
        exchange -> {
          byte[] body = "Hello, Ada!".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void fetchesTheGreeting() throws IOException {
    assertEquals("Hello, Ada!", new GreetingClient(url("/greeting")).fetch());
  }

  @Test
  void reportsAMissingPage() {
    IOException e =
        assertThrows(IOException.class, () -> new GreetingClient(url("/missing")).fetch());
    assertEquals("the service answered 404", e.getMessage());
  }

  private URL url(String path) throws IOException {
    return new URL("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }
}
