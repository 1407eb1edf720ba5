package io.levee.agent.apache5async;

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
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.Message;
import org.apache.hc.core5.http.nio.entity.StringAsyncEntityConsumer;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.http.nio.support.BasicResponseConsumer;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The async client of HttpClient 5, woven in this JVM, against a local server. */
class ApacheAsyncIntegrationTest {
  private static TestServer server;
  private static ServerSocket silent;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();
  private final RecordingDispatcher dispatcher = new RecordingDispatcher();
  private PoolingAsyncClientConnectionManager pool;
  private CloseableHttpAsyncClient client;

  @BeforeAll
  static void instrument() throws IOException {
    TestAgent.install(new ApacheAsyncIntegration());
    server = new TestServer();
    silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
  }

  @AfterAll
  static void restore() throws IOException {
    server.close();
    silent.close();
  }

  @BeforeEach
  void start() {
    Levee.install(dispatcher);
    pool = PoolingAsyncClientConnectionManagerBuilder.create().build();
    client = HttpAsyncClients.custom().setConnectionManager(pool).build();
    client.start();
    Thread acceptor =
        new Thread(
            () -> {
              try {
                while (true) {
                  accepted.add(silent.accept());
                }
              } catch (IOException closed) {
                // The test is over.
              }
            });
    acceptor.setDaemon(true);
    acceptor.start();
  }

  @AfterEach
  void stop() throws IOException {
    client.close(CloseMode.GRACEFUL);
    Levee.install(null);
    for (Socket s : accepted) {
      s.close();
    }
    assertThat(TestAgent.errors()).isEmpty();
    assertThat(dispatcher.internalErrors).isEmpty();
  }

  @Test
  void decidesOnceAndReportsTheStatusWhenTheFutureCompletes() throws Exception {
    Permit permit = permit(0, 0);
    dispatcher.answering(permit);

    SimpleHttpResponse response = client.execute(get(server.url(200)), null).get(5, SECONDS);

    assertThat(response.getBodyText()).isEqualTo("status 200");
    assertThat(dispatcher.decisions)
        .extracting(RecordingDispatcher.Decision::first, RecordingDispatcher.Decision::second)
        .containsExactly(tuple("GET", server.url(200)));
    assertThat(dispatcher.outcomes)
        .extracting(RecordingDispatcher.Outcome::reported)
        .containsExactly(new RecordingDispatcher.Reported(permit, 200, null));
    assertNoLease(pool);
  }

  @Test
  void reportsAServerErrorAsItsStatus() throws Exception {
    dispatcher.answering(permit(0, 0));

    assertThat(client.execute(get(server.url(500)), null).get(5, SECONDS).getCode()).isEqualTo(500);

    assertThat(dispatcher.outcomes)
        .singleElement()
        .satisfies(o -> assertThat(o.status()).isEqualTo(500));
  }

  @Test
  void readsTheStatusFromTheResponseHeadForAnyConsumer() throws Exception {
    dispatcher.answering(permit(0, 0));

    Future<Message<HttpResponse, String>> future =
        client.execute(
            new BasicRequestProducer("POST", java.net.URI.create(server.url(503))),
            new BasicResponseConsumer<>(new StringAsyncEntityConsumer()),
            null);

    assertThat(future.get(5, SECONDS).getBody()).isEqualTo("status 503");
    assertThat(dispatcher.decisions)
        .extracting(RecordingDispatcher.Decision::first)
        .containsExactly("POST");
    assertThat(dispatcher.outcomes).extracting(RecordingDispatcher.Outcome::status).contains(503);
  }

  @Test
  void blockedCallFailsItsFutureAndCallbackWithoutContactingTheHost() throws Exception {
    dispatcher.answering(blocked());
    int before = server.requests.get();
    Recorded callback = new Recorded();

    Future<SimpleHttpResponse> future = client.execute(get(server.url(200)), callback);

    assertThatThrownBy(() -> future.get(1, SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("levee:");
    assertThat(callback.outcome.get(1, SECONDS))
        .isEqualTo("failed: levee: payments blocked (circuit-open)");
    assertThat(callback.thread).isSameAs(Thread.currentThread());
    assertThat(server.requests.get()).isEqualTo(before);
    assertThat(dispatcher.outcomes).isEmpty();
    assertNoLease(pool);
  }

  @Test
  void fallbackAnswersWithASimpleHttpResponse() throws Exception {
    dispatcher.answering(fallback(503, "{\"down\":true}", "X-Levee", "yes"));
    int before = server.requests.get();
    Recorded callback = new Recorded();

    SimpleHttpResponse response = client.execute(get(server.url(200)), callback).get(1, SECONDS);

    assertThat(response.getCode()).isEqualTo(503);
    assertThat(response.getBodyText()).isEqualTo("{\"down\":true}");
    assertThat(response.getContentType().getMimeType()).isEqualTo("text/plain");
    assertThat(response.getFirstHeader("X-Levee").getValue()).isEqualTo("yes");
    assertThat(callback.outcome.get(1, SECONDS)).isEqualTo("completed: 503");
    assertThat(server.requests.get()).isEqualTo(before);
  }

  @Test
  void fallbackAnswersAnyConsumerInItsOwnType() throws Exception {
    dispatcher.answering(fallback(200, "cached"));

    Message<HttpResponse, String> message =
        client
            .execute(
                new BasicRequestProducer("GET", java.net.URI.create(server.url(200))),
                new BasicResponseConsumer<>(new StringAsyncEntityConsumer()),
                null)
            .get(1, SECONDS);

    assertThat(message.getHead().getCode()).isEqualTo(200);
    assertThat(message.getBody()).isEqualTo("cached");
  }

  @Test
  void refusedConnectionReportsTheException() throws Exception {
    dispatcher.answering(permit(0, 0));
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }

    Future<SimpleHttpResponse> future =
        client.execute(get("http://127.0.0.1:" + port + "/x"), null);

    assertThatThrownBy(() -> future.get(5, SECONDS)).hasCauseInstanceOf(ConnectException.class);
    assertThat(dispatcher.outcomes)
        .singleElement()
        .satisfies(o -> assertThat(o.error()).isInstanceOf(ConnectException.class));
    assertNoLease(pool);
  }

  @Test
  void readTimeoutEndsACallToAHostThatNeverAnswers() {
    dispatcher.answering(permit(0, 300));
    long start = System.nanoTime();

    Future<SimpleHttpResponse> future = client.execute(get(silentUrl()), null);

    assertThatThrownBy(() -> future.get(5, SECONDS))
        .hasCauseInstanceOf(SocketTimeoutException.class);
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(3000);
    assertThat(dispatcher.outcomes)
        .singleElement()
        .satisfies(o -> assertThat(o.error()).isInstanceOf(SocketTimeoutException.class));
  }

  @Test
  void readTimeoutLeavesAResponseTimeoutTheRequestSetAlone() {
    dispatcher.answering(permit(0, 200));
    SimpleHttpRequest request = get(silentUrl());
    request.setConfig(
        RequestConfig.custom().setResponseTimeout(Timeout.ofMilliseconds(1200)).build());
    long start = System.nanoTime();

    Future<SimpleHttpResponse> future = client.execute(request, null);

    assertThatThrownBy(() -> future.get(5, SECONDS))
        .hasCauseInstanceOf(SocketTimeoutException.class);
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThan(1000);
  }

  @Test
  void aFutureTheClientFailsBeforeReturningIsReportedAtOnce() {
    dispatcher.answering(permit(0, 0));
    client.close(CloseMode.IMMEDIATE);

    Future<SimpleHttpResponse> future = client.execute(get(server.url(200)), null);

    assertThat(future.isDone()).isTrue();
    assertThat(dispatcher.outcomes)
        .singleElement()
        .satisfies(o -> assertThat(o.error()).isInstanceOf(IllegalStateException.class));
  }

  @Test
  void theMinimalClientIsDecidedTimedAndBlockedTheSameWay() throws Exception {
    PoolingAsyncClientConnectionManager minimalPool =
        PoolingAsyncClientConnectionManagerBuilder.create().build();
    try (CloseableHttpAsyncClient minimal =
        HttpAsyncClients.createMinimal(
            org.apache.hc.core5.http2.HttpVersionPolicy.FORCE_HTTP_1,
            org.apache.hc.core5.http2.config.H2Config.DEFAULT,
            org.apache.hc.core5.http.config.Http1Config.DEFAULT,
            org.apache.hc.core5.reactor.IOReactorConfig.DEFAULT,
            minimalPool)) {
      minimal.start();
      Permit permit = permit(0, 300);
      dispatcher.answering(permit);

      assertThat(minimal.execute(get(server.url(200)), null).get(5, SECONDS).getCode())
          .isEqualTo(200);
      Future<SimpleHttpResponse> stalled = minimal.execute(get(silentUrl()), null);
      assertThatThrownBy(() -> stalled.get(3, SECONDS))
          .hasCauseInstanceOf(SocketTimeoutException.class);
      dispatcher.answering(blocked());
      Future<SimpleHttpResponse> refused = minimal.execute(get(server.url(200)), null);
      assertThatThrownBy(() -> refused.get(1, SECONDS)).hasMessageContaining("levee:");

      assertThat(dispatcher.outcomes)
          .extracting(RecordingDispatcher.Outcome::status)
          .containsExactly(200, -1);
      assertNoLease(minimalPool);
    }
  }

  @Test
  void cancelledCallGivesItsPermitBack() throws Exception {
    dispatcher.answering(permit(0, 0));

    Future<SimpleHttpResponse> future = client.execute(get(silentUrl()), null);
    Thread.sleep(100);
    future.cancel(true);

    assertThat(dispatcher.outcomes)
        .extracting(RecordingDispatcher.Outcome::status)
        .containsExactly(Dispatcher.STATUS_ABANDONED);
  }

  @Test
  void callsWhoseRequestCannotBeReadAreNotTracked() throws Exception {
    dispatcher.answering(blocked());
    BasicRequestProducer readable =
        new BasicRequestProducer("GET", java.net.URI.create(server.url(200)));
    org.apache.hc.core5.http.nio.AsyncRequestProducer opaque =
        new org.apache.hc.core5.http.nio.AsyncRequestProducer() {
          @Override
          public void sendRequest(
              org.apache.hc.core5.http.nio.RequestChannel channel,
              org.apache.hc.core5.http.protocol.HttpContext context)
              throws org.apache.hc.core5.http.HttpException, IOException {
            readable.sendRequest(channel, context);
          }

          @Override
          public boolean isRepeatable() {
            return true;
          }

          @Override
          public void failed(Exception cause) {}

          @Override
          public int available() {
            return 0;
          }

          @Override
          public void produce(org.apache.hc.core5.http.nio.DataStreamChannel channel) {}

          @Override
          public void releaseResources() {}
        };

    Message<HttpResponse, String> message =
        client
            .execute(opaque, new BasicResponseConsumer<>(new StringAsyncEntityConsumer()), null)
            .get(5, SECONDS);

    assertThat(message.getBody()).isEqualTo("status 200");
    assertThat(dispatcher.decisions).isEmpty();
  }

  private static final TimeUnit SECONDS = TimeUnit.SECONDS;

  @Test
  void handsTheBodyOfAGoodSimpleResponseToTheLastGoodKeeper() throws Exception {
    Keeping keeping = new Keeping();
    Levee.install(keeping);

    client.execute(get(server.url(200)), null).get(5, SECONDS);
    client.execute(get(server.url(500)), null).get(5, SECONDS);
    client
        .execute(
            new BasicRequestProducer("GET", java.net.URI.create(server.url(201))),
            new BasicResponseConsumer<>(new StringAsyncEntityConsumer()),
            null)
        .get(5, SECONDS);

    // Neither the 500 nor a Message, whose body only its consumer has seen, is offered.
    assertThat(keeping.asked).containsExactly("GET " + server.url(200) + " 200");
    assertThat(keeping.kept).containsExactly("status 200");
    assertThat(keeping.exits).hasValue(3);
    assertThat(keeping.errors).isEmpty();
  }

  /** The client gives a connection back just after it completes the future. */
  private static void assertNoLease(PoolingAsyncClientConnectionManager p)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (p.getTotalStats().getLeased() != 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(p.getTotalStats().getLeased()).as("leased connections").isZero();
  }

  private static SimpleHttpRequest get(String url) {
    return SimpleRequestBuilder.get(url).build();
  }

  private static String silentUrl() {
    return "http://127.0.0.1:" + silent.getLocalPort() + "/hang";
  }

  /** Admits every call with one permit whose resource keeps last good answers. */
  private static final class Keeping extends Dispatcher {
    final Permit permit = permit(0, 0);
    final List<String> asked = new CopyOnWriteArrayList<>();
    final List<String> kept = new CopyOnWriteArrayList<>();
    final java.util.concurrent.atomic.AtomicInteger exits =
        new java.util.concurrent.atomic.AtomicInteger();

    @Override
    public Object httpEnter(String method, String url) {
      return permit;
    }

    @Override
    public boolean keepsLastGood(Object p) {
      return true;
    }

    @Override
    public io.levee.bootstrap.http.LastGoodKeeper lastGood(
        Object p, String method, String url, int status, String[] headers) {
      asked.add(method + " " + url + " " + status);
      return new io.levee.bootstrap.http.LastGoodKeeper(1024) {
        @Override
        public void keep(byte[] body, int length) {
          kept.add(new String(body, 0, length, java.nio.charset.StandardCharsets.UTF_8));
        }
      };
    }

    final List<Throwable> errors = new CopyOnWriteArrayList<>();

    @Override
    public void exit(Object token, long startNanos, int status, Throwable error) {
      exits.incrementAndGet();
    }

    @Override
    public void internalError(Throwable error) {
      errors.add(error);
    }
  }

  /** A callback that records how the call ended, and on which thread. */
  private static final class Recorded implements FutureCallback<SimpleHttpResponse> {
    final CompletableFuture<String> outcome = new CompletableFuture<>();
    volatile Thread thread;

    @Override
    public void completed(SimpleHttpResponse result) {
      thread = Thread.currentThread();
      outcome.complete("completed: " + result.getCode());
    }

    @Override
    public void failed(Exception ex) {
      thread = Thread.currentThread();
      outcome.complete("failed: " + ex.getMessage());
    }

    @Override
    public void cancelled() {
      thread = Thread.currentThread();
      outcome.complete("cancelled");
    }
  }
}
