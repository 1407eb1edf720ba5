package io.levee.agent.jdkhttp;

import static io.levee.agent.testing.RecordingDispatcher.blocked;
import static io.levee.agent.testing.RecordingDispatcher.fallback;
import static io.levee.agent.testing.RecordingDispatcher.permit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.levee.agent.testing.RecordingDispatcher;
import io.levee.agent.testing.TestAgent;
import io.levee.agent.testing.TestServer;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class JdkHttpIntegrationTest {
  private static final String JSON = "{\"status\":\"degraded\"}";
  private static TestServer server;
  private static SilentServers.Stalling stalling;
  private static HttpClient client;
  private final RecordingDispatcher dispatcher = new RecordingDispatcher();

  @BeforeAll
  static void instrument() throws IOException {
    // A client made before the weave: nothing of the call is kept in the client object.
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    TestAgent.install(new JdkHttpIntegration());
    server = new TestServer();
    stalling = new SilentServers.Stalling();
  }

  @AfterAll
  static void restore() throws IOException {
    // Other tests use the JDK's client as their own tool: they get it back as it was.
    TestAgent.uninstall(new JdkHttpIntegration());
    server.close();
    stalling.close();
  }

  @BeforeEach
  void installDispatcher() {
    Levee.install(dispatcher);
  }

  @AfterEach
  void removeDispatcher() {
    Levee.install(null);
    assertThat(dispatcher.internalErrors).isEmpty();
    assertThat(TestAgent.errors()).isEmpty();
  }

  @Test
  void sendDecidesOnceAndReportsTheStatusWhenTheResponseCompletes() throws Exception {
    Permit permit = permit(0, 0);
    dispatcher.answering(permit);

    HttpResponse<String> r = client.send(get(server.url(200)), BodyHandlers.ofString());

    assertThat(r.body()).isEqualTo("status 200");
    assertThat(dispatcher.decisions)
        .extracting(RecordingDispatcher.Decision::first, RecordingDispatcher.Decision::second)
        .containsExactly(org.assertj.core.api.Assertions.tuple("GET", server.url(200)));
    assertThat(dispatcher.outcomes)
        .extracting(RecordingDispatcher.Outcome::reported)
        .containsExactly(new RecordingDispatcher.Reported(permit, 200, null));
  }

  @Test
  void sendAsyncReportsAServerErrorAsItsStatus() throws Exception {
    Permit permit = permit(0, 0);
    dispatcher.answering(permit);

    HttpResponse<String> r =
        client.sendAsync(get(server.url(500)), BodyHandlers.ofString()).get(10, TimeUnit.SECONDS);

    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(dispatcher.decisions).hasSize(1);
    awaitOutcomes(1);
    assertThat(dispatcher.outcomes)
        .extracting(RecordingDispatcher.Outcome::reported)
        .containsExactly(new RecordingDispatcher.Reported(permit, 500, null));
  }

  @Test
  void aRefusedConnectionEndsTheCallWithTheClientsOwnException() throws Exception {
    dispatcher.answering(permit(0, 0));
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }

    assertThatThrownBy(() -> client.send(get("http://127.0.0.1:" + port + "/"), discard()))
        .isInstanceOf(ConnectException.class);

    awaitOutcomes(1);
    assertThat(dispatcher.outcomes.get(0).status()).isEqualTo(-1);
    assertThat(dispatcher.outcomes.get(0).error()).isInstanceOf(ConnectException.class);
  }

  @Test
  void blockedSendThrowsALeveeIOExceptionWithoutContactingTheHost() {
    dispatcher.answering(blocked());
    int before = server.requests.get();

    assertThatThrownBy(() -> client.send(get(server.url(200)), BodyHandlers.ofString()))
        .isExactlyInstanceOf(IOException.class)
        .hasMessageStartingWith("levee:");

    assertThat(server.requests.get()).isEqualTo(before);
    assertThat(dispatcher.decisions).hasSize(1);
    assertThat(dispatcher.outcomes).isEmpty();
  }

  @Test
  void blockedSendAsyncReturnsAFutureCompletedExceptionally() {
    dispatcher.answering(blocked());
    int before = server.requests.get();

    CompletableFuture<HttpResponse<String>> f =
        client.sendAsync(get(server.url(200)), BodyHandlers.ofString());

    assertThat(f).isCompletedExceptionally();
    assertThatThrownBy(f::join)
        .cause()
        .isExactlyInstanceOf(IOException.class)
        .hasMessageStartingWith("levee:");
    assertThat(server.requests.get()).isEqualTo(before);
  }

  @Test
  void fallbackAppliesTheCallersStringAndByteArrayHandlers() throws Exception {
    dispatcher.answering(fallback(503, JSON, "Content-Type", "application/json"));
    int before = server.requests.get();

    HttpResponse<String> text = client.send(get(server.url(200)), BodyHandlers.ofString());
    HttpResponse<byte[]> bytes =
        client.sendAsync(get(server.url(200)), BodyHandlers.ofByteArray()).get();

    assertThat(text.statusCode()).isEqualTo(503);
    assertThat(text.body()).isEqualTo(JSON);
    assertThat(text.headers().firstValue("content-type")).contains("application/json");
    assertThat(text.headers().firstValue("Content-Length")).contains("21");
    assertThat(text.request().uri()).hasToString(server.url(200));
    assertThat(text.uri()).hasToString(server.url(200));
    assertThat(text.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
    assertThat(text.previousResponse()).isEmpty();
    assertThat(new String(bytes.body(), StandardCharsets.UTF_8)).isEqualTo(JSON);
    assertThat(server.requests.get()).isEqualTo(before);
    // Defined beside java.net.http, not in the agent's own loader.
    assertThat(text.getClass().getClassLoader().getParent())
        .isSameAs(ClassLoader.getPlatformClassLoader());
  }

  @Test
  void fallbackStreamsThroughTheInputStreamAndLinesHandlers() throws Exception {
    dispatcher.answering(fallback(200, "one\ntwo\nthree"));

    HttpResponse<InputStream> stream =
        client.send(get(server.url(500)), BodyHandlers.ofInputStream());
    String read;
    try (InputStream in = stream.body()) {
      read = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(in.read()).isEqualTo(-1);
    }
    HttpResponse<Stream<String>> lines =
        client.sendAsync(get(server.url(500)), BodyHandlers.ofLines()).get();
    List<String> all;
    try (Stream<String> s = lines.body()) {
      all = s.collect(Collectors.toList());
    }

    assertThat(read).isEqualTo("one\ntwo\nthree");
    assertThat(all).containsExactly("one", "two", "three");
    assertThat(stream.statusCode()).isEqualTo(200);
  }

  @Test
  void fallbackWithAnEmptyBodyCompletesEveryHandler() throws Exception {
    dispatcher.answering(fallback(204, ""));

    assertThat(client.send(get(server.url(200)), BodyHandlers.ofString()).body()).isEmpty();
    try (InputStream in = client.send(get(server.url(200)), BodyHandlers.ofInputStream()).body()) {
      assertThat(in.read()).isEqualTo(-1);
    }
    assertThat(client.send(get(server.url(200)), discard()).statusCode()).isEqualTo(204);
  }

  @Test
  void aHandlerThatFailsOnAFallbackFailsTheCallAsTheClientWould() {
    dispatcher.answering(fallback(503, JSON));
    HttpResponse.BodyHandler<String> failing =
        info -> {
          throw new IllegalStateException("handler " + info.statusCode());
        };

    CompletableFuture<HttpResponse<String>> f = client.sendAsync(get(server.url(200)), failing);

    assertThatThrownBy(f::get)
        .isInstanceOf(ExecutionException.class)
        .cause()
        .hasMessage("handler 503");
  }

  @Test
  void appliesThePermitsReadTimeoutAsTheRequestTimeoutWhereTheRequestHasNone() {
    dispatcher.answering(permit(0, 300));
    long start = System.nanoTime();

    assertThatThrownBy(() -> client.send(get(stalling.url()), discard()))
        .isInstanceOf(HttpTimeoutException.class);

    assertThat((System.nanoTime() - start) / 1_000_000).isBetween(250L, 5_000L);
    awaitOutcomes(1);
    assertThat(dispatcher.outcomes.get(0).error()).isInstanceOf(HttpTimeoutException.class);
    // Only for the call: the application's request, asked outside it, still has none.
    assertThat(get(stalling.url()).timeout()).isEmpty();
  }

  @Test
  void keepsTheRequestsOwnTimeout() {
    dispatcher.answering(permit(0, 300));
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(stalling.url())).timeout(Duration.ofMillis(1200)).build();
    long start = System.nanoTime();

    assertThatThrownBy(() -> client.send(request, discard()))
        .isInstanceOf(HttpTimeoutException.class);

    assertThat((System.nanoTime() - start) / 1_000_000).isBetween(1_100L, 6_000L);
  }

  @Test
  void appliesThePermitsConnectTimeoutWhereTheClientHasNone() throws IOException {
    dispatcher.answering(permit(300, 0));
    try (SilentServers.FullBacklog full = new SilentServers.FullBacklog()) {
      long start = System.nanoTime();

      assertThatThrownBy(() -> client.send(get(full.url()), discard()))
          .isInstanceOf(HttpConnectTimeoutException.class);

      assertThat((System.nanoTime() - start) / 1_000_000).isBetween(250L, 5_000L);
    }
    // Only for the call: the client, asked outside it, still has none.
    assertThat(client.connectTimeout()).isEmpty();
  }

  @Test
  void keepsTheClientsOwnConnectTimeout() throws IOException {
    dispatcher.answering(permit(300, 0));
    HttpClient own = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(1200)).build();
    try (SilentServers.FullBacklog full = new SilentServers.FullBacklog()) {
      long start = System.nanoTime();

      assertThatThrownBy(() -> own.send(get(full.url()), discard()))
          .isInstanceOf(HttpConnectTimeoutException.class);

      assertThat((System.nanoTime() - start) / 1_000_000).isBetween(1_100L, 6_000L);
    }
  }

  @Test
  void cancellingTheFutureGivesThePermitBackWithoutAnOutcome() throws Exception {
    Permit permit = permit(0, 0);
    dispatcher.answering(permit);

    CompletableFuture<HttpResponse<Void>> f = client.sendAsync(get(stalling.url()), discard());
    f.cancel(true);

    awaitOutcomes(1);
    assertThat(dispatcher.outcomes)
        .extracting(RecordingDispatcher.Outcome::reported)
        .containsExactly(
            new RecordingDispatcher.Reported(permit, Dispatcher.STATUS_ABANDONED, null));
  }

  @Test
  void anUntrackedCallRunsAsItIs() throws Exception {
    dispatcher.answering(null);

    HttpResponse<String> r = client.send(get(server.url(201)), BodyHandlers.ofString());

    assertThat(r.statusCode()).isEqualTo(201);
    assertThat(r.body()).isEqualTo("status 201");
    assertThat(dispatcher.outcomes).isEmpty();
  }

  @Test
  void aFailingDispatcherLeavesTheCallUnprotected() throws Exception {
    dispatcher.failing(new IllegalStateException("broken agent"));

    HttpResponse<String> r = client.send(get(server.url(200)), BodyHandlers.ofString());

    assertThat(r.body()).isEqualTo("status 200");
    assertThat(dispatcher.outcomes).isEmpty();
    dispatcher.internalErrors.clear();
  }

  private static HttpRequest get(String url) {
    return HttpRequest.newBuilder(URI.create(url)).build();
  }

  private static HttpResponse.BodyHandler<Void> discard() {
    return BodyHandlers.discarding();
  }

  private void awaitOutcomes(int count) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (dispatcher.outcomes.size() < count && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(dispatcher.outcomes).hasSize(count);
  }
}
