package io.levee.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** The test's side of a forked application's HTTP port: single, concurrent and paced requests. */
public final class AppClient {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private final ForkedApp app;
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  public AppClient(ForkedApp app) {
    this.app = app;
  }

  /** {@code GET path}, headers given as name, value, name, value... */
  public HttpResponse<String> get(String pathAndQuery, String... headers) {
    return join(send(pathAndQuery, headers));
  }

  /** Starts {@code count} identical requests at once and waits for every answer. */
  public List<HttpResponse<String>> concurrently(
      int count, String pathAndQuery, String... headers) {
    List<CompletableFuture<HttpResponse<String>>> futures = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      futures.add(send(pathAndQuery, headers));
    }
    return futures.stream().map(AppClient::join).toList();
  }

  /**
   * Sends {@code perSecond} requests a second for {@code duration}, without waiting for answers in
   * between, so that the offered rate does not depend on how fast the application answers.
   */
  public Paced paced(String pathAndQuery, int perSecond, Duration duration, String... headers) {
    List<CompletableFuture<HttpResponse<String>>> futures = new ArrayList<>();
    List<Long> sentAt = new ArrayList<>();
    long periodNanos = 1_000_000_000L / perSecond;
    long total = duration.toNanos() / periodNanos;
    long start = System.nanoTime();
    try {
      for (long i = 0; i < total; i++) {
        long due = start + i * periodNanos;
        long wait = due - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        sentAt.add(System.nanoTime());
        futures.add(send(pathAndQuery, headers));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return new Paced(futures.stream().map(AppClient::join).toList(), sentAt);
  }

  /** The answers of a paced run and when each request was sent (nanoTime). */
  public record Paced(List<HttpResponse<String>> responses, List<Long> sentAt) {
    public long count(int status) {
      return responses.stream().filter(r -> r.statusCode() == status).count();
    }

    /** From the first request sent to the last. */
    public double seconds() {
      return (sentAt.get(sentAt.size() - 1) - sentAt.get(0)) / 1e9;
    }
  }

  public static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private CompletableFuture<HttpResponse<String>> send(String pathAndQuery, String... headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(app.url(pathAndQuery))).timeout(TIMEOUT);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return client.sendAsync(request.GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private static <T> T join(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (java.util.concurrent.CompletionException e) {
      if (e.getCause() instanceof IOException io) {
        throw new UncheckedIOException(io);
      }
      throw e;
    }
  }
}
