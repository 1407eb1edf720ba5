package io.levee.agent.apache5async;

import static io.levee.agent.testing.RecordingDispatcher.blocked;
import static io.levee.agent.testing.RecordingDispatcher.permit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.levee.agent.testing.KeepingDispatcher;
import io.levee.agent.testing.RecordingDispatcher;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.Set;
import java.util.concurrent.Future;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.Message;
import org.apache.hc.core5.http.message.BasicHttpResponse;
import org.apache.hc.core5.http.nio.entity.StringAsyncEntityConsumer;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.http.nio.support.BasicResponseConsumer;
import org.apache.hc.core5.io.CloseMode;
import org.junit.jupiter.api.Test;

/**
 * The async client beyond the common path: a future done before {@code doExecute} returns, the
 * minimal client, producers whose request cannot be read, and the last-good capture.
 */
class ApacheAsyncEdgesTest extends AsyncClientFixture {
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

  @Test
  void handsTheBodyOfAGoodSimpleResponseToTheLastGoodKeeper() throws Exception {
    KeepingDispatcher keeping = new KeepingDispatcher();
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

  /**
   * HttpClient 5.6 decodes gzip for the consumer, whose entity details then have no encoding, and
   * leaves the headers of the encoded body on the response: they are not kept with the decoded one.
   */
  @Test
  void keepsADecodedBodyWithoutTheHeadersOfTheEncodedOne() {
    KeepingDispatcher keeping = new KeepingDispatcher();
    Levee.install(keeping);
    ApacheAsyncClientCalls calls = new ApacheAsyncClientCalls();
    BasicHttpResponse encoded = new BasicHttpResponse(200);
    encoded.addHeader("Content-Encoding", "gzip");

    assertThat(calls.decoded(encoded, details(null))).isTrue();
    assertThat(calls.decoded(encoded, details("gzip"))).isFalse();
    assertThat(calls.decoded(encoded, null)).isFalse();
    assertThat(calls.decoded(new BasicHttpResponse(200), details(null))).isFalse();

    SimpleHttpResponse result = new SimpleHttpResponse(200);
    result.addHeader("Content-Type", "application/json");
    result.addHeader("Content-Encoding", "gzip");
    result.addHeader("Content-Length", "50");
    result.addHeader("Content-MD5", "x");
    result.setBody("{\"eur\":2}", ContentType.APPLICATION_JSON);
    calls.keepLastGood(result, keeping.permit, "GET", "http://127.0.0.1/p", 200, true);
    calls.keepLastGood(result, keeping.permit, "GET", "http://127.0.0.1/p", 200, false);

    assertThat(keeping.headers)
        .containsExactly(
            "Content-Type application/json",
            "Content-Type application/json Content-Encoding gzip Content-Length 50 Content-MD5 x");
    assertThat(keeping.kept).containsExactly("{\"eur\":2}", "{\"eur\":2}");
  }

  /** Entity details of a JSON body with the given encoding, as a consumer is given them. */
  private static EntityDetails details(String encoding) {
    return new EntityDetails() {
      @Override
      public long getContentLength() {
        return -1;
      }

      @Override
      public String getContentType() {
        return "application/json";
      }

      @Override
      public String getContentEncoding() {
        return encoding;
      }

      @Override
      public boolean isChunked() {
        return true;
      }

      @Override
      public Set<String> getTrailerNames() {
        return Set.of();
      }
    };
  }

  /** A callback that records how the call ended, and on which thread. */
}
