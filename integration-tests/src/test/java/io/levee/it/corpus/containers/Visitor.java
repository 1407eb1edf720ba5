package io.levee.it.corpus.containers;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.GZIPInputStream;

/**
 * Sends a container's fixed list of requests with the JDK's HTTP client, one after the other and
 * without cookies (so that every request stands alone), and records what came back, normalised.
 */
final class Visitor {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /**
   * Headers that are left out: {@code Date} is the clock, and {@code Keep-Alive}/{@code Connection}
   * belong to the connection, not to the page.
   */
  private static final List<String> LEFT_OUT = List.of("date", "keep-alive", "connection");

  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .followRedirects(HttpClient.Redirect.NEVER)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final int port;
  private final Path base;

  /** A visitor of the container listening on {@code port}, its scratch directory {@code base}. */
  Visitor(int port, Path base) {
    this.port = port;
    this.base = base;
  }

  List<Seen> visit(List<Exchange> exchanges) {
    List<Seen> seen = new ArrayList<>();
    for (Exchange exchange : exchanges) {
      try {
        seen.add(exchange.websocket() ? converse(exchange) : send(exchange));
      } catch (IOException | RuntimeException e) {
        // A failure is an observation too: the other ways must fail the same way.
        seen.add(new Seen(exchange.toString(), -1, List.of(), e.getClass().getName()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return seen;
  }

  private Seen send(Exchange exchange) throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + exchange.path()))
            .timeout(TIMEOUT)
            .method(
                exchange.method(),
                exchange.form() == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(exchange.form()));
    exchange.headers().forEach(request::header);
    HttpResponse<byte[]> response =
        client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    List<String> headers = new ArrayList<>();
    response.headers().map().forEach((name, values) -> headers.addAll(lines(name, values)));
    headers.sort(null);
    String body = new String(decoded(response), StandardCharsets.UTF_8);
    return new Seen(exchange.toString(), response.statusCode(), headers, normalise(body));
  }

  private List<String> lines(String name, List<String> values) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (LEFT_OUT.contains(lower)) {
      return List.of();
    }
    if (lower.equals("content-length") || lower.equals("last-modified")) {
      // The body is compared after normalisation; its length still carries the port's digits.
      // A deployed WAR's files are as old as the run that unpacked them.
      return List.of(lower);
    }
    List<String> lines = new ArrayList<>();
    values.forEach(v -> lines.add(lower + ": " + normalise(v)));
    return lines;
  }

  /** The body as the page wrote it: a gzip body (the compression filter's) is unzipped. */
  private static byte[] decoded(HttpResponse<byte[]> response) throws IOException {
    boolean gzip =
        response
            .headers()
            .firstValue("Content-Encoding")
            .map("gzip"::equalsIgnoreCase)
            .orElse(false);
    if (!gzip) {
      return response.body();
    }
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(response.body()))) {
      return in.readAllBytes();
    }
  }

  /** Opens the socket, sends one text message, and records the first text message back. */
  private Seen converse(Exchange exchange) throws InterruptedException {
    CompletableFuture<String> reply = new CompletableFuture<>();
    WebSocket.Listener listener =
        new WebSocket.Listener() {
          private final StringBuilder text = new StringBuilder();

          @Override
          public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
              reply.complete(text.toString());
            }
            socket.request(1);
            return null;
          }

          @Override
          public void onError(WebSocket socket, Throwable error) {
            reply.completeExceptionally(error);
          }
        };
    try {
      WebSocket socket =
          client
              .newWebSocketBuilder()
              .connectTimeout(TIMEOUT)
              .buildAsync(URI.create("ws://127.0.0.1:" + port + exchange.path()), listener)
              .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      socket.sendText(exchange.form(), true).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      String text = reply.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      return new Seen(exchange.toString(), 101, List.of(), normalise(text));
    } catch (ExecutionException | TimeoutException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      return new Seen(exchange.toString(), -1, List.of(), cause.getClass().getName());
    }
  }

  private String normalise(String text) {
    return Normalise.text(text, port, base);
  }
}
