package io.levee.agent.apache4;

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
import org.apache.http.HttpHost;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.client.methods.HttpPost;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
import org.apache.http.message.BasicHttpRequest;
import org.apache.http.util.EntityUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Apache HttpClient 4 integration woven into this JVM, against a local server: one decision per
 * call whatever the {@code execute} form, the status as the outcome, a blocked call's {@code
 * levee:} exception or fallback without a connection taken from the pool, and the rule's timeouts
 * only where the request configuration leaves them unset.
 */
class Apache4IntegrationTest {
  private static TestServer server;
  private final RecordingDispatcher dispatcher = new RecordingDispatcher();
  private PoolingHttpClientConnectionManager pool;
  private CloseableHttpClient client;

  @BeforeAll
  static void instrument() throws IOException {
    TestAgent.install(new Apache4Integration());
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
  void decidesOncePerCallAndReportsTheStatus() throws IOException {
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
  void decidesTheResponseHandlerFormOnceWithTheTargetAndPath() throws IOException {
    String url = server.url(200);
    HttpHost target = HttpHost.create(url.substring(0, url.indexOf("/status")));
    String body =
        client.execute(
            target,
            new BasicHttpRequest("POST", "/status/200"),
            r -> EntityUtils.toString(r.getEntity()));
    assertThat(body).isEqualTo("status 200");
    assertThat(dispatcher.decisions)
        .extracting(RecordingDispatcher.Decision::first, RecordingDispatcher.Decision::second)
        .containsExactly(tuple("POST", url));
    assertThat(dispatcher.outcomes).extracting(RecordingDispatcher.Outcome::status).contains(200);
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
  void fallbackIsAClientResponseWithAReadableBody() throws IOException {
    dispatcher.answering(
        fallback(503, "{\"status\":\"degraded\"}", "Content-Type", "application/json"));
    int before = server.requests.get();
    try (CloseableHttpResponse r = client.execute(new HttpGet(server.url(200)))) {
      assertThat(r.getStatusLine().getStatusCode()).isEqualTo(503);
      assertThat(r.getStatusLine().getReasonPhrase()).isEqualTo("Service Unavailable");
      assertThat(r.getFirstHeader("Content-Type").getValue()).isEqualTo("application/json");
      assertThat(r.getEntity().getContentType().getValue()).isEqualTo("application/json");
      assertThat(EntityUtils.toString(r.getEntity())).isEqualTo("{\"status\":\"degraded\"}");
    }
    String handled =
        client.execute(
            new HttpGet(server.url(200)),
            r -> r.getStatusLine().getStatusCode() + " " + EntityUtils.toString(r.getEntity()));
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
      own.setConfig(RequestConfig.custom().setSocketTimeout(900).build());
      start = System.nanoTime();
      assertThatThrownBy(() -> client.execute(own)).isInstanceOf(SocketTimeoutException.class);
      assertThat((System.nanoTime() - start) / 1_000_000).isBetween(850L, 3_000L);
    }
  }

  @Test
  void teesTheBodyOfAGoodGetIntoTheLastGoodKeeperAsTheApplicationReadsIt() throws IOException {
    KeepingDispatcher keeping = new KeepingDispatcher();
    Levee.install(keeping);
    try (CloseableHttpResponse r = client.execute(new HttpGet(server.url(200)))) {
      assertThat(EntityUtils.toString(r.getEntity())).isEqualTo("status 200");
    }
    assertThat(keeping.asked).containsExactly("GET " + server.url(200) + " 200");
    assertThat(keeping.kept).containsExactly("status 200");
    assertThat(pool.getTotalStats().getLeased()).isZero();

    String handled = client.execute(new HttpGet(server.url(201)), r -> "not read");
    assertThat(handled).isEqualTo("not read");
    assertThat(keeping.kept).containsExactly("status 200");
    assertThat(pool.getTotalStats().getLeased()).isZero();
  }

  @Test
  void failingDispatcherLeavesTheCallWorking() throws IOException {
    dispatcher.failing(new IllegalStateException("broken agent"));
    try (CloseableHttpResponse r = client.execute(new HttpGet(server.url(200)))) {
      assertThat(r.getStatusLine().getStatusCode()).isEqualTo(200);
    }
    assertThat(dispatcher.outcomes).isEmpty();
  }

  @Test
  void timeoutsFillOnlyWhatTheConfigurationLeavesNegative() {
    Apache4ClientCalls calls = new Apache4ClientCalls();
    RequestConfig unset = RequestConfig.DEFAULT;
    RequestConfig filled = (RequestConfig) calls.withTimeouts(unset, 700, 900);
    assertThat(filled.getConnectTimeout()).isEqualTo(700);
    assertThat(filled.getSocketTimeout()).isEqualTo(900);

    RequestConfig own = RequestConfig.custom().setConnectTimeout(0).setSocketTimeout(50).build();
    assertThat(calls.withTimeouts(own, 700, 900)).isSameAs(own);
    assertThat(calls.withTimeouts(unset, 0, 0)).isSameAs(unset);
  }

  @Test
  void wovenWithoutWarnings() {
    assertThat(TestAgent.errors()).isEmpty();
  }
}
