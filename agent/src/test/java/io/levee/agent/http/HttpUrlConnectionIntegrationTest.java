package io.levee.agent.http;

import static io.levee.agent.testing.RecordingDispatcher.blocked;
import static io.levee.agent.testing.RecordingDispatcher.fallback;
import static io.levee.agent.testing.RecordingDispatcher.permit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.levee.agent.testing.RecordingDispatcher;
import io.levee.agent.testing.TestAgent;
import io.levee.agent.testing.TestServer;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpUrlConnectionIntegrationTest {
  private static TestServer server;
  private final RecordingDispatcher dispatcher = new RecordingDispatcher();

  @BeforeAll
  static void instrument() throws IOException {
    TestAgent.install(new HttpUrlConnectionIntegration());
    server = new TestServer();
  }

  @AfterAll
  static void restore() {
    server.close();
  }

  @BeforeEach
  void installDispatcher() {
    Levee.install(dispatcher);
  }

  @AfterEach
  void removeDispatcher() {
    Levee.install(null);
  }

  @Test
  void decidesOncePerConnectionAcrossConnectAndGetInputStream() throws IOException {
    Permit permit = permit(0, 0);
    dispatcher.answering(permit);
    HttpURLConnection c = open(server.url(200));
    c.connect();
    assertThat(body(c.getInputStream())).isEqualTo("status 200");
    assertThat(c.getResponseCode()).isEqualTo(200);

    assertThat(dispatcher.decisions)
        .extracting(RecordingDispatcher.Decision::first, RecordingDispatcher.Decision::second)
        .containsExactly(tuple("GET", server.url(200)));
    assertThat(dispatcher.outcomes)
        .extracting(RecordingDispatcher.Outcome::reported)
        .containsExactly(new RecordingDispatcher.Reported(permit, 200, null));
  }

  @Test
  void recordsServerErrorAsStatusNotAsError() throws IOException {
    dispatcher.answering(permit(0, 0));
    HttpURLConnection c = open(server.url(500));

    assertThat(c.getResponseCode()).isEqualTo(500);
    assertThat(body(c.getErrorStream())).isEqualTo("status 500");

    assertThat(dispatcher.decisions).hasSize(1);
    assertThat(dispatcher.outcomes)
        .singleElement()
        .satisfies(
            o -> {
              assertThat(o.status()).isEqualTo(500);
              assertThat(o.error()).isNull();
            });
  }

  @Test
  void decidesOnceWhenPostingThroughGetOutputStream() throws IOException {
    dispatcher.answering(permit(0, 0));
    HttpURLConnection c = open(server.url(201));
    c.setRequestMethod("POST");
    c.setDoOutput(true);
    try (OutputStream out = c.getOutputStream()) {
      out.write("order".getBytes(StandardCharsets.UTF_8));
    }
    assertThat(dispatcher.outcomes).isEmpty();

    assertThat(c.getResponseCode()).isEqualTo(201);
    assertThat(dispatcher.decisions)
        .extracting(RecordingDispatcher.Decision::first)
        .containsExactly("POST");
    assertThat(dispatcher.outcomes)
        .extracting(RecordingDispatcher.Outcome::status)
        .containsExactly(201);
  }

  @Test
  void headRequestIsDecidedAndFinishedOnce() throws IOException {
    dispatcher.answering(permit(0, 0));
    HttpURLConnection c = open(server.url(200));
    c.setRequestMethod("HEAD");

    assertThat(c.getResponseCode()).isEqualTo(200);
    assertThat(c.getHeaderField("Content-Length")).isNull();
    assertThat(c.getResponseCode()).isEqualTo(200);

    assertThat(dispatcher.decisions).hasSize(1);
    assertThat(dispatcher.outcomes)
        .extracting(RecordingDispatcher.Outcome::status)
        .containsExactly(200);
  }

  @Test
  void blockedCallThrowsLeveeIOExceptionWithoutContactingTheHost() throws IOException {
    dispatcher.answering(blocked());
    int before = server.requests.get();
    HttpURLConnection c = open(server.url(200));

    assertThatThrownBy(c::connect).isInstanceOf(IOException.class).hasMessageStartingWith("levee:");
    assertThatThrownBy(c::getInputStream)
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("levee:");
    assertThatThrownBy(c::getResponseCode)
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("levee:");

    assertThat(server.requests.get()).isEqualTo(before);
    assertThat(dispatcher.decisions).hasSize(1);
    assertThat(dispatcher.outcomes).isEmpty();
  }

  @Test
  void fallbackAnswersEveryResponseMethodAlikeWithoutContactingTheHost() throws IOException {
    dispatcher.answering(
        fallback(503, "{\"status\":\"degraded\"}", "Content-Type", "application/json"));
    int before = server.requests.get();
    HttpURLConnection c = open(server.url(200));

    assertThat(c.getResponseCode()).isEqualTo(503);
    assertThat(c.getResponseMessage()).isEqualTo("Service Unavailable");
    assertThat(c.getHeaderField(0)).isEqualTo("HTTP/1.1 503 Service Unavailable");
    assertThat(c.getContentType()).isEqualTo("application/json");
    assertThat(c.getHeaderField("content-length")).isEqualTo("21");
    assertThat(c.getHeaderFields())
        .containsEntry("Content-Type", java.util.List.of("application/json"));
    assertThat(c.getHeaderFields().get(null)).containsExactly("HTTP/1.1 503 Service Unavailable");
    assertThatThrownBy(c::getInputStream)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("503");
    assertThat(body(c.getErrorStream())).isEqualTo("{\"status\":\"degraded\"}");

    assertThat(server.requests.get()).isEqualTo(before);
    assertThat(dispatcher.decisions).hasSize(1);
    assertThat(dispatcher.outcomes).isEmpty();
  }

  @Test
  void successfulFallbackServesItsBodyAndSwallowsTheRequestBody() throws IOException {
    dispatcher.answering(fallback(200, "cached"));
    int before = server.requests.get();
    HttpURLConnection c = open(server.url(500));
    c.setRequestMethod("PUT");
    c.setDoOutput(true);
    try (OutputStream out = c.getOutputStream()) {
      out.write("ignored".getBytes(StandardCharsets.UTF_8));
    }

    assertThat(body(c.getInputStream())).isEqualTo("cached");
    assertThat(c.getResponseCode()).isEqualTo(200);
    assertThat(c.getErrorStream()).isNull();
    assertThat(c.getContentType()).isEqualTo("text/plain; charset=utf-8");
    assertThat(server.requests.get()).isEqualTo(before);
  }

  @Test
  void fallbackNotFoundThrowsWhatTheJdkThrows() throws IOException {
    dispatcher.answering(fallback(404, "none"));
    HttpURLConnection c = open(server.url(200));

    assertThatThrownBy(c::getInputStream).isInstanceOf(FileNotFoundException.class);
    assertThat(c.getResponseCode()).isEqualTo(404);
  }

  @Test
  void injectsTimeoutsOnlyWhereTheApplicationLeftZero() throws IOException {
    dispatcher.answering(permit(1234, 5678));
    HttpURLConnection untouched = open(server.url(200));
    HttpURLConnection configured = open(server.url(200));
    configured.setConnectTimeout(100);

    untouched.connect();
    configured.connect();

    assertThat(untouched.getConnectTimeout()).isEqualTo(1234);
    assertThat(untouched.getReadTimeout()).isEqualTo(5678);
    assertThat(configured.getConnectTimeout()).isEqualTo(100);
    assertThat(configured.getReadTimeout()).isEqualTo(5678);
    untouched.disconnect();
    configured.disconnect();
  }

  @Test
  void disconnectReleasesThePermitOfAConnectionNeverRead() throws IOException {
    Permit permit = permit(0, 0);
    dispatcher.answering(permit);
    HttpURLConnection c = open(server.url(200));
    c.connect();
    assertThat(dispatcher.outcomes).isEmpty();

    c.disconnect();
    c.disconnect();

    assertThat(dispatcher.outcomes)
        .extracting(RecordingDispatcher.Outcome::reported)
        .containsExactly(
            new RecordingDispatcher.Reported(permit, Dispatcher.STATUS_ABANDONED, null));
  }

  @Test
  void permitOfAConnectionDroppedUnreadIsReleasedOnceItIsCollected() throws Exception {
    Permit permit = permit(0, 0);
    dispatcher.answering(permit);
    connectAndDrop(server.url(200));
    assertThat(dispatcher.outcomes).isEmpty();

    dispatcher.answering(null);
    for (int i = 0; i < 50 && dispatcher.outcomes.isEmpty(); i++) {
      System.gc();
      Thread.sleep(20);
      open(server.url(200)).connect();
    }

    assertThat(dispatcher.outcomes)
        .extracting(RecordingDispatcher.Outcome::reported)
        .containsExactly(
            new RecordingDispatcher.Reported(permit, Dispatcher.STATUS_ABANDONED, null));
  }

  private static void connectAndDrop(String url) throws IOException {
    open(url).connect();
  }

  @Test
  void connectionUsedOnTwoThreadsIsDecidedAndFinishedOnce() throws Exception {
    dispatcher.answering(permit(0, 0));
    HttpURLConnection c = open(server.url(200));
    ExecutorService other = Executors.newSingleThreadExecutor();
    try {
      CompletableFuture.runAsync(() -> connect(c), other).get();
      assertThat(c.getResponseCode()).isEqualTo(200);
    } finally {
      other.shutdown();
    }

    assertThat(dispatcher.decisions).hasSize(1);
    assertThat(dispatcher.outcomes)
        .extracting(RecordingDispatcher.Outcome::status)
        .containsExactly(200);
  }

  @Test
  void connectFailureEndsTheCallWithItsException() throws IOException {
    dispatcher.answering(permit(0, 0));
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    HttpURLConnection c = open("http://127.0.0.1:" + closedPort + "/");

    assertThatThrownBy(c::getInputStream).isInstanceOf(ConnectException.class);

    assertThat(dispatcher.decisions).hasSize(1);
    assertThat(dispatcher.outcomes)
        .singleElement()
        .satisfies(
            o -> {
              assertThat(o.status()).isEqualTo(-1);
              assertThat(o.error()).isInstanceOf(ConnectException.class);
            });
  }

  @Test
  void failingDispatcherLeavesTheCallWorking() throws IOException {
    dispatcher.failing(new IllegalStateException("engine bug"));
    HttpURLConnection c = open(server.url(200));

    assertThat(body(c.getInputStream())).isEqualTo("status 200");
    assertThat(c.getResponseCode()).isEqualTo(200);

    assertThat(dispatcher.internalErrors).singleElement().isInstanceOf(IllegalStateException.class);
    assertThat(dispatcher.outcomes).isEmpty();
  }

  @Test
  void untrackedConnectionIsDecidedOnceAndReportsNothing() throws IOException {
    dispatcher.answering(null);
    HttpURLConnection c = open(server.url(200));
    c.connect();
    assertThat(c.getResponseCode()).isEqualTo(200);
    assertThat(c.getHeaderField("Content-Length")).isEqualTo("10");

    assertThat(dispatcher.decisions).hasSize(1);
    assertThat(dispatcher.outcomes).isEmpty();
  }

  private static HttpURLConnection open(String url) throws IOException {
    return (HttpURLConnection) new URL(url).openConnection();
  }

  private static void connect(HttpURLConnection c) {
    try {
      c.connect();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String body(InputStream in) throws IOException {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
