package io.levee.agent.apache5async;

import static io.levee.agent.testing.RecordingDispatcher.blocked;
import static io.levee.agent.testing.RecordingDispatcher.fallback;
import static io.levee.agent.testing.RecordingDispatcher.permit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.levee.agent.testing.RecordingDispatcher;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Permit;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.Message;
import org.apache.hc.core5.http.nio.entity.StringAsyncEntityConsumer;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.http.nio.support.BasicResponseConsumer;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;

/** The async client of HttpClient 5, woven in this JVM, against a local server. */
class ApacheAsyncIntegrationTest extends AsyncClientFixture {
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
  void cancelledCallGivesItsPermitBack() throws Exception {
    dispatcher.answering(permit(0, 0));

    Future<SimpleHttpResponse> future = client.execute(get(silentUrl()), null);
    Thread.sleep(100);
    future.cancel(true);

    assertThat(dispatcher.outcomes)
        .extracting(RecordingDispatcher.Outcome::status)
        .containsExactly(Dispatcher.STATUS_ABANDONED);
  }

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
