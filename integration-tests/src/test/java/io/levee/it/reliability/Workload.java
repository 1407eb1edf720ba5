package io.levee.it.reliability;

import io.levee.it.reliability.ServletLoad.Request;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Reply;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Drives {@link io.levee.it.apps.workload.WorkloadApp}: inbound requests from here, outbound HTTP
 * and JDBC workloads inside the application ({@code /run}), all at once, and the heap after full
 * collections ({@code /heap}).
 */
final class Workload {
  /** Shares of a run: inbound requests are a network round trip each, so they are the fewest. */
  private static final double SERVLET = 0.10;

  private static final double HTTP = 0.40;
  private static final int ASYNC_THREADS = 50;

  private final ForkedApp app;
  private final String partner;
  private final String refused;
  private final HttpClient client =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  Workload(ForkedApp app, String partner, String refused) {
    this.app = app;
    this.partner = partner;
    this.refused = refused;
  }

  /** The counts of {@link #everyPath}: servlet by status, http and jdbc by mode and outcome. */
  record Counts(ServletLoad servlet, ServletLoad asyncTimeouts, Reply http, Reply jdbc) {
    long total() {
      return servlet.total() + asyncTimeouts.total() + http.number("calls") + jdbc.number("calls");
    }
  }

  /**
   * About {@code calls} calls over every path at once: a tenth inbound (answered, blocked, thrown,
   * async) plus a few async requests that time out, four tenths outbound HTTP, the rest JDBC.
   */
  Counts everyPath(long calls) throws Exception {
    long servletCalls = (long) (calls * SERVLET);
    long httpCalls = (long) (calls * HTTP);
    long jdbcCalls = calls - servletCalls - httpCalls;
    long timeouts = Math.max(ASYNC_THREADS, calls / 2000);
    CompletableFuture<Reply> http =
        CompletableFuture.supplyAsync(() -> http(httpCalls, NoLeaksIT.HTTP_MIX, false));
    CompletableFuture<Reply> jdbc =
        CompletableFuture.supplyAsync(() -> jdbc(jdbcCalls, NoLeaksIT.JDBC_MIX, false));
    CompletableFuture<ServletLoad> asyncTimeouts =
        CompletableFuture.supplyAsync(
            () ->
                sendUnchecked(
                    timeouts, ASYNC_THREADS, i -> Request.of("/svc/async-timeout?ms=50")));
    ServletLoad servlet = new ServletLoad(app.port()).send(servletCalls, 4, Workload::page);
    return new Counts(servlet, asyncTimeouts.join(), http.join(), jdbc.join());
  }

  /** Request {@code i} of the inbound mix: 60 % answered, 20 % blocked, 15 % thrown, 5 % async. */
  private static Request page(long i) {
    int slot = (int) (i % 20);
    if (slot < 12) {
      return Request.of("/svc/ok");
    }
    if (slot < 16) {
      return Request.of("/svc/blocked");
    }
    return Request.of(slot < 19 ? "/svc/throw" : "/svc/async");
  }

  /** Inbound requests {@code 0..count-1} from four threads, as {@code request} builds them. */
  ServletLoad servlet(long count, java.util.function.LongFunction<Request> request)
      throws Exception {
    return new ServletLoad(app.port()).send(count, 4, request);
  }

  Reply http(long calls, String mix, boolean distinct) {
    return run(
        "kind=http&threads=2&calls="
            + calls
            + "&mix="
            + encode(mix)
            + "&distinct="
            + distinct
            + "&server="
            + encode(partner)
            + "&refused="
            + encode(refused));
  }

  Reply jdbc(long calls, String mix, boolean distinct) {
    return run(
        "kind=jdbc&threads=2&calls=" + calls + "&mix=" + encode(mix) + "&distinct=" + distinct);
  }

  /** Used heap in bytes after full collections, in the application's JVM. */
  long usedHeapAfterGc() {
    return Reply.parse(get("/heap")).number("usedBytes");
  }

  private ServletLoad sendUnchecked(
      long count, int threads, java.util.function.LongFunction<Request> request) {
    try {
      return new ServletLoad(app.port()).send(count, threads, request);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private Reply run(String query) {
    Reply reply = Reply.parse(get("/run?" + query));
    if (reply.number("calls") < 0) {
      throw new IllegalStateException("the workload failed: " + reply.raw());
    }
    return reply;
  }

  private String get(String pathAndQuery) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(app.url(pathAndQuery)))
            .timeout(Duration.ofMinutes(8))
            .build();
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
