package io.levee.agent.apache5;

import static io.levee.agent.testing.RecordingDispatcher.blocked;
import static io.levee.agent.testing.RecordingDispatcher.fallback;
import static io.levee.agent.testing.RecordingDispatcher.permit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.levee.agent.testing.KeepingDispatcher;
import io.levee.agent.testing.RecordingDispatcher;
import io.levee.agent.testing.TestAgent;
import io.levee.agent.testing.TestServer;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.entity.GzipDecompressingEntity;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.http.message.BasicClassicHttpResponse;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Apache HttpClient 5 classic integration woven into this JVM, against a local server: one
 * decision per call whatever the {@code execute} form ({@code executeOpen} and the response handler
 * ones included), the status as the outcome, a blocked call's {@code levee:} exception or fallback
 * without a connection taken from the pool, and the rule's timeouts only where the request
 * configuration leaves them unset.
 */
class Apache5IntegrationTest {
  private static TestServer server;
  private final RecordingDispatcher dispatcher = new RecordingDispatcher();
  private PoolingHttpClientConnectionManager pool;
  private CloseableHttpClient client;

  @BeforeAll
  static void instrument() throws IOException {
    TestAgent.install(new Apache5Integration());
    server = new TestServer();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @BeforeEach
  void start() {
    Levee.install(dispatcher);
    pool = new PoolingHttpClientConnectionManager();
    client = HttpClients.custom().setConnectionManager(pool).build();
  }

  @AfterEach
  void close() throws IOException {
    Levee.install(null);
    client.close();
  }

  @Test
  void decidesOncePerCallAndReportsTheStatus() throws Exception {
    Permit permit = permit(0, 0);
    dispatcher.answering(permit);
    try (CloseableHttpResponse r = client.execute(new HttpGet(server.url(500)))) {
      assertThat(EntityUtils.toString(r.getEntity())).isEqualTo("status 500");
    }
    assertThat(dispatcher.decisions)
        .extracting(RecordingDispatcher.Decision::first, RecordingDispatcher.Decision::second)
        .containsExactly(tuple("GET", server.url(500)));
    assertThat(dispatcher.outcomes)
        .extracting(RecordingDispatcher.Outcome::reported)
        .containsExactly(new RecordingDispatcher.Reported(permit, 500, null));
    assertThat(pool.getTotalStats().getLeased()).isZero();
  }

  @Test
  void decidesTheHandlerAndExecuteOpenFormsOnceWithTheTargetAndPath() throws Exception {
    String url = server.url(200);
    HttpHost target = HttpHost.create(url.substring(0, url.indexOf("/status")));
    String body =
        client.execute(
            target,
            new BasicClassicHttpRequest("POST", "/status/200"),
            r -> EntityUtils.toString(r.getEntity()));
    assertThat(body).isEqualTo("status 200");
    try (ClassicHttpResponse r = client.executeOpen(null, new HttpGet(url), null)) {
      assertThat(r.getCode()).isEqualTo(200);
      EntityUtils.consume(r.getEntity());
    }
    assertThat(dispatcher.decisions)
        .extracting(RecordingDispatcher.Decision::first, RecordingDispatcher.Decision::second)
        .containsExactly(tuple("POST", url), tuple("GET", url));
    assertThat(dispatcher.outcomes).extracting(RecordingDispatcher.Outcome::status).contains(200);
    assertThat(pool.getTotalStats().getLeased()).isZero();
  }

  @Test
  void blockedCallThrowsLeveeIOExceptionWithoutTakingAConnection() {
    dispatcher.answering(blocked());
    int before = server.requests.get();
    assertThatThrownBy(() -> client.execute(new HttpGet(server.url(200))))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("levee:");
    assertThatThrownBy(() -> client.execute(new HttpPost(server.url(200)), r -> "handled"))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("levee:");
    assertThat(server.requests.get()).isEqualTo(before);
    assertThat(dispatcher.outcomes).isEmpty();
    assertThat(pool.getTotalStats().getLeased()).isZero();
    assertThat(pool.getTotalStats().getAvailable()).isZero();
  }

  @Test
  void fallbackIsAClientResponseWithAReadableBody() throws Exception {
    dispatcher.answering(
        fallback(503, "{\"status\":\"degraded\"}", "Content-Type", "application/json"));
    int before = server.requests.get();
    try (CloseableHttpResponse r = client.execute(new HttpGet(server.url(200)))) {
      assertThat(r.getCode()).isEqualTo(503);
      assertThat(r.getReasonPhrase()).isEqualTo("Service Unavailable");
      assertThat(r.getFirstHeader("Content-Type").getValue()).isEqualTo("application/json");
      assertThat(r.getEntity().getContentType()).isEqualTo("application/json");
      assertThat(EntityUtils.toString(r.getEntity())).isEqualTo("{\"status\":\"degraded\"}");
    }
    String handled =
        client.execute(
            new HttpGet(server.url(200)),
            r -> r.getCode() + " " + EntityUtils.toString(r.getEntity()));
    assertThat(handled).isEqualTo("503 {\"status\":\"degraded\"}");
    assertThat(server.requests.get()).isEqualTo(before);
    assertThat(pool.getTotalStats().getLeased()).isZero();
  }

  @Test
  void refusedConnectionEndsTheCallWithItsException() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    assertThatThrownBy(() -> client.execute(new HttpGet("http://127.0.0.1:" + port + "/x")))
        .isInstanceOf(ConnectException.class);
    assertThat(dispatcher.outcomes)
        .singleElement()
        .satisfies(o -> assertThat(o.error()).isInstanceOf(ConnectException.class));
    assertThat(pool.getTotalStats().getLeased()).isZero();
  }

  @Test
  void appliesTheReadTimeoutOnlyWhereTheRequestLeavesItUnset() throws IOException {
    dispatcher.answering(permit(0, 300));
    try (ServerSocket silent = new ServerSocket(0)) {
      String url = "http://127.0.0.1:" + silent.getLocalPort() + "/x";
      long start = System.nanoTime();
      assertThatThrownBy(() -> client.execute(new HttpGet(url)))
          .isInstanceOf(SocketTimeoutException.class);
      assertThat((System.nanoTime() - start) / 1_000_000).isBetween(250L, 2_000L);

      HttpGet own = new HttpGet(url);
      own.setConfig(RequestConfig.custom().setResponseTimeout(900, TimeUnit.MILLISECONDS).build());
      start = System.nanoTime();
      assertThatThrownBy(() -> client.execute(own)).isInstanceOf(SocketTimeoutException.class);
      assertThat((System.nanoTime() - start) / 1_000_000).isBetween(850L, 3_000L);
    }
  }

  @Test
  void teesTheBodyOfAGoodGetIntoTheLastGoodKeeperAsTheApplicationReadsIt() throws Exception {
    KeepingDispatcher keeping = new KeepingDispatcher();
    Levee.install(keeping);
    try (CloseableHttpResponse r = client.execute(new HttpGet(server.url(200)))) {
      assertThat(EntityUtils.toString(r.getEntity())).isEqualTo("status 200");
    }
    assertThat(keeping.asked).containsExactly("GET " + server.url(200) + " 200");
    assertThat(keeping.kept).containsExactly("status 200");

    String handled = client.execute(new HttpGet(server.url(201)), r -> "not read");
    assertThat(handled).isEqualTo("not read");
    assertThat(keeping.kept).containsExactly("status 200");
    assertThat(pool.getTotalStats().getLeased()).isZero();
  }

  /** HttpClient 5.6 decodes gzip but leaves the headers that describe the encoded body. */
  @Test
  void keptHeadersDescribeTheBodyAsTheClientDecodedIt() {
    Apache5ClientCalls calls = new Apache5ClientCalls();
    BasicClassicHttpResponse decoded = new BasicClassicHttpResponse(200);
    decoded.addHeader("Content-Type", "application/json");
    decoded.addHeader("Content-Encoding", "gzip");
    decoded.addHeader("Content-Length", "60");
    decoded.setEntity(
        new GzipDecompressingEntity(
            new ByteArrayEntity(new byte[60], ContentType.APPLICATION_JSON, "gzip")));
    assertThat(calls.headers(decoded)).containsExactly("Content-Type", "application/json");

    BasicClassicHttpResponse encoded = new BasicClassicHttpResponse(200);
    encoded.addHeader("Content-Encoding", "gzip");
    encoded.addHeader("Content-Length", "60");
    encoded.setEntity(new ByteArrayEntity(new byte[60], ContentType.APPLICATION_JSON, "gzip"));
    assertThat(calls.headers(encoded))
        .containsExactly("Content-Encoding", "gzip", "Content-Length", "60");
  }

  @Test
  void failingDispatcherLeavesTheCallWorking() throws IOException {
    dispatcher.failing(new IllegalStateException("broken agent"));
    try (CloseableHttpResponse r = client.execute(new HttpGet(server.url(200)))) {
      assertThat(r.getCode()).isEqualTo(200);
    }
    assertThat(dispatcher.outcomes).isEmpty();
  }

  @Test
  @SuppressWarnings("deprecation") // the request's connect timeout, read where it is set
  void timeoutsFillOnlyWhatTheConfigurationLeavesNull() {
    Apache5ClientCalls calls = new Apache5ClientCalls();
    RequestConfig unset = RequestConfig.DEFAULT;
    RequestConfig filled = (RequestConfig) calls.withTimeouts(unset, 700, 900);
    assertThat(filled.getConnectTimeout().toMilliseconds()).isEqualTo(700);
    assertThat(filled.getResponseTimeout().toMilliseconds()).isEqualTo(900);

    RequestConfig own =
        RequestConfig.custom()
            .setConnectTimeout(Timeout.DISABLED)
            .setResponseTimeout(Timeout.ofMilliseconds(50))
            .build();
    assertThat(calls.withTimeouts(own, 700, 900)).isSameAs(own);
    assertThat(calls.withTimeouts(unset, 0, 0)).isSameAs(unset);
  }

  @Test
  void wovenWithoutWarnings() {
    assertThat(TestAgent.errors()).isEmpty();
  }
}
