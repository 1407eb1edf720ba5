package io.levee.it.apps.corpus.http;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The JDK's {@code java.net.http.HttpClient}, one client for every exchange as applications keep
 * it, through {@code send} and, every other exchange, {@code sendAsync} joined.
 */
public final class JdkClientExchanges extends ClientExchanges {
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .followRedirects(HttpClient.Redirect.NORMAL)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private int sent;

  public static void main(String[] args) throws Exception {
    new JdkClientExchanges().run();
  }

  @Override
  protected Answer exchange(String method, String url, byte[] body) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    HttpResponse<byte[]> response;
    if (sent++ % 2 == 0) {
      response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } else {
      CompletableFuture<HttpResponse<byte[]>> future =
          client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
      response = future.get();
    }
    return new Answer(response.statusCode(), response.headers().map(), response.body());
  }
}
