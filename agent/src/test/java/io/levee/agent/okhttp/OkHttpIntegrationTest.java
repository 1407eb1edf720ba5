package io.levee.agent.okhttp;

import static io.levee.agent.testing.RecordingDispatcher.blocked;
import static io.levee.agent.testing.RecordingDispatcher.fallback;
import static io.levee.agent.testing.RecordingDispatcher.permit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.sun.net.httpserver.HttpServer;
import io.levee.agent.testing.RecordingDispatcher;
import io.levee.agent.testing.TestAgent;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.http.LastGoodKeeper;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The OkHttp integration woven into this JVM's OkHttp 4.12 (the contract tests run 3.14 and 5.x in
 * forked JVMs): one decision per call, what a blocked call and a fallback give on {@code execute}
 * and {@code enqueue}, the outcome reported, and the call timeout applied where unset.
 */
class OkHttpIntegrationTest {
  private static HttpServer server;
  private static final AtomicInteger REQUESTS = new AtomicInteger();
  private final RecordingDispatcher dispatcher = new RecordingDispatcher();
  private final OkHttpClient client = new OkHttpClient();

  @BeforeAll
  static void instrument() throws IOException {
    TestAgent.install(new OkHttpIntegration());
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/status/",
        exchange -> {
          REQUESTS.incrementAndGet();
          String path = exchange.getRequestURI().getPath();
          int status = Integer.parseInt(path.substring(path.lastIndexOf('/') + 1));
          byte[] body = ("status " + status).getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(status, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.createContext(
        "/redirect",
        exchange -> {
          REQUESTS.incrementAndGet();
          exchange.getResponseHeaders().set("Location", "/status/200");
          exchange.sendResponseHeaders(302, -1);
          exchange.close();
        });
    server.start();
  }

  @AfterAll
  static void stop() {
    server.stop(0);
  }

  @BeforeEach
  void installDispatcher() {
    Levee.install(dispatcher);
    REQUESTS.set(0);
  }

  @AfterEach
  void removeDispatcher() {
    Levee.install(null);
    client.dispatcher().executorService().shutdown();
    client.connectionPool().evictAll();
  }

  @Test
  void decidesOncePerCallAndReportsTheStatusWhenTheHeadersArrive() throws IOException {
    Permit permit = permit(0, 0);
    dispatcher.answering(permit);
    try (Response r = execute(url("/status/500"))) {
      assertThat(r.code()).isEqualTo(500);
      assertThat(r.body().string()).isEqualTo("status 500");
    }
    assertThat(dispatcher.decisions)
        .extracting(RecordingDispatcher.Decision::first, RecordingDispatcher.Decision::second)
        .containsExactly(tuple("GET", url("/status/500")));
    assertThat(dispatcher.outcomes)
        .extracting(RecordingDispatcher.Outcome::reported)
        .containsExactly(new RecordingDispatcher.Reported(permit, 500, null));
    assertThat(TestAgent.errors()).isEmpty();
  }

  @Test
  void followsRedirectsInsideOneDecision() throws IOException {
    Permit permit = permit(0, 0);
    dispatcher.answering(permit);
    try (Response r = execute(url("/redirect"))) {
      assertThat(r.body().string()).isEqualTo("status 200");
    }
    assertThat(REQUESTS).hasValue(2);
    assertThat(dispatcher.decisions).hasSize(1);
    assertThat(dispatcher.outcomes)
        .extracting(RecordingDispatcher.Outcome::reported)
        .containsExactly(new RecordingDispatcher.Reported(permit, 200, null));
  }

  @Test
  void blockedExecuteThrowsLeveeIOExceptionWithoutContactingTheHost() {
    dispatcher.answering(blocked());
    assertThatThrownBy(() -> execute(url("/status/200")))
        .isExactlyInstanceOf(IOException.class)
        .hasMessageStartingWith("levee:");
    assertThat(REQUESTS).hasValue(0);
    assertThat(dispatcher.outcomes).isEmpty();
    assertThat(client.connectionPool().connectionCount()).isZero();
  }

  @Test
  void blockedEnqueueFailsOnTheDispatcherThread() throws Exception {
    dispatcher.answering(blocked());
    CompletableFuture<String> failure = new CompletableFuture<>();
    client
        .newCall(new Request.Builder().url(url("/status/200")).build())
        .enqueue(
            new Callback() {
              @Override
              public void onFailure(Call call, IOException e) {
                failure.complete(Thread.currentThread().getName() + " | " + e.getMessage());
              }

              @Override
              public void onResponse(Call call, Response response) {
                response.close();
                failure.complete("response " + response.code());
              }
            });
    assertThat(failure.get(5, TimeUnit.SECONDS)).startsWith("OkHttp ").contains(" | levee:");
    assertThat(REQUESTS).hasValue(0);
  }

  @Test
  void fallbackIsAResponseWithAReadableBody() throws Exception {
    dispatcher.answering(fallback(503, "{\"degraded\":true}", "Content-Type", "application/json"));
    try (Response r = execute(url("/status/200"))) {
      assertThat(r.code()).isEqualTo(503);
      assertThat(r.message()).isEqualTo("Service Unavailable");
      assertThat(r.header("Content-Type")).isEqualTo("application/json");
      assertThat(r.body().contentType().toString()).isEqualTo("application/json");
      assertThat(r.body().string()).isEqualTo("{\"degraded\":true}");
    }
    CompletableFuture<String> answer = new CompletableFuture<>();
    client
        .newCall(new Request.Builder().url(url("/status/200")).build())
        .enqueue(
            new Callback() {
              @Override
              public void onFailure(Call call, IOException e) {
                answer.complete("failure " + e);
              }

              @Override
              public void onResponse(Call call, Response response) throws IOException {
                try (Response r = response) {
                  answer.complete(r.code() + " " + r.body().string());
                }
              }
            });
    assertThat(answer.get(5, TimeUnit.SECONDS)).isEqualTo("503 {\"degraded\":true}");
    assertThat(REQUESTS).hasValue(0);
  }

  @Test
  void refusedConnectionEndsTheCallWithItsException() throws IOException {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    dispatcher.answering(permit(0, 0));
    assertThatThrownBy(() -> execute("http://127.0.0.1:" + port + "/x"))
        .isInstanceOf(ConnectException.class);
    assertThat(dispatcher.outcomes).hasSize(1);
    assertThat(dispatcher.outcomes.get(0).error()).isInstanceOf(ConnectException.class);
  }

  @Test
  void appliesTheCallTimeoutOnlyWhereTheApplicationSetNone() throws IOException {
    try (ServerSocket stalled = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      String url = "http://127.0.0.1:" + stalled.getLocalPort() + "/stall";
      dispatcher.answering(permit(100, 200));
      long start = System.nanoTime();
      assertThatThrownBy(() -> execute(url))
          .isInstanceOf(InterruptedIOException.class)
          .hasMessage("timeout");
      assertThat(elapsedMillis(start)).isBetween(250L, 3_000L);

      OkHttpClient own = client.newBuilder().callTimeout(800, TimeUnit.MILLISECONDS).build();
      start = System.nanoTime();
      assertThatThrownBy(() -> own.newCall(new Request.Builder().url(url).build()).execute())
          .isInstanceOf(InterruptedIOException.class);
      assertThat(elapsedMillis(start)).isBetween(750L, 5_000L);
    }
  }

  @Test
  void failingDispatcherLeavesTheCallWorking() throws IOException {
    dispatcher.failing(new IllegalStateException("broken agent"));
    try (Response r = execute(url("/status/200"))) {
      assertThat(r.body().string()).isEqualTo("status 200");
    }
    assertThat(dispatcher.internalErrors).isNotEmpty();
  }

  @Test
  void keepsTheBodyOfAGoodGetAsTheApplicationReadsIt() throws IOException {
    List<String> kept = new CopyOnWriteArrayList<>();
    Levee.install(
        new Dispatcher() {
          final Permit permit = permit(0, 0);

          @Override
          public Object httpEnter(String method, String url) {
            return permit;
          }

          @Override
          public boolean keepsLastGood(Object token) {
            return true;
          }

          @Override
          public LastGoodKeeper lastGood(
              Object token, String method, String url, int status, String[] headers) {
            kept.add(method + " " + url + " " + status + " " + List.of(headers));
            return new LastGoodKeeper(1024) {
              @Override
              public void keep(byte[] body, int length) {
                kept.add(new String(body, 0, length, StandardCharsets.UTF_8));
              }
            };
          }
        });
    try (Response r = execute(url("/status/200"))) {
      assertThat(r.body().contentLength()).isEqualTo(10);
      assertThat(r.body().string()).isEqualTo("status 200");
    }
    try (Response r = execute(url("/status/500"))) {
      assertThat(r.body().string()).isEqualTo("status 500");
    }
    try (Response r = execute(url("/status/201"))) {
      assertThat(r.body().source().readUtf8(3)).isEqualTo("sta");
    }
    // 200 read to its end: kept; 500: not offered; 201 closed early: offered, nothing kept.
    assertThat(kept).hasSize(3);
    assertThat(kept.get(0))
        .startsWith("GET " + url("/status/200") + " 200 ")
        .contains("Content-length, 10");
    assertThat(kept.get(1)).isEqualTo("status 200");
    assertThat(kept.get(2)).startsWith("GET " + url("/status/201") + " 201 ");
  }

  private Response execute(String url) throws IOException {
    return client.newCall(new Request.Builder().url(url).build()).execute();
  }

  private static String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  private static long elapsedMillis(long start) {
    return (System.nanoTime() - start) / 1_000_000;
  }
}
