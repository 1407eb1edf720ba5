package io.levee.agent.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.levee.agent.metrics.LeveeMeters;
import io.levee.agent.testing.EngineFixture;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LocalEndpointTest {
  private final EngineFixture f = new EngineFixture().apply(StatusJsonTest.RULES);
  private final HttpClient client = HttpClient.newHttpClient();
  private LocalEndpoint endpoint;

  @AfterEach
  void close() {
    if (endpoint != null) {
      endpoint.close();
    }
  }

  private LocalEndpoint start(String http) throws IOException {
    LeveeMeters meters =
        new LeveeMeters(
            LeveeMeters.newRegistry(), f.engine, f.cpu, new AtomicLong(), new AtomicLong());
    endpoint = LocalEndpoint.start(EndpointAddress.parse(http), f.engine, meters.registry(), f.log);
    return endpoint;
  }

  private HttpResponse<String> send(String method, String path) throws Exception {
    InetSocketAddress a = endpoint.address().socket();
    URI uri = URI.create("http://127.0.0.1:" + a.getPort() + path);
    return client.send(
        HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void servesMetricsInThePrometheusTextFormat() throws Exception {
    start(":0");
    StatusJsonTest.traffic(f);

    HttpResponse<String> r = send("GET", "/metrics");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValue("text/plain; version=0.0.4; charset=utf-8");
    assertThat(r.body().lines())
        .contains(
            "levee_blocked_total{kind=\"servlet\",mode=\"enforce\",reason=\"rate-limit\",resource=\"checkout\"}"
                + " 1",
            "levee_inflight{resource=\"checkout\"} 1");
  }

  @Test
  void servesTheStatusTableAsJson() throws Exception {
    start(":0");
    StatusJsonTest.traffic(f);

    HttpResponse<String> r = send("GET", "/status");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
    StatusJsonTest.assertMatches(
        new ObjectMapper().readTree(r.body()).get("resources"), f.engine.status());
  }

  @Test
  void answersOnlyGetAndHeadOnItsTwoPaths() throws Exception {
    start(":0");
    assertThat(send("POST", "/metrics").statusCode()).isEqualTo(405);
    assertThat(send("GET", "/metrics/x").statusCode()).isEqualTo(404);
    assertThat(send("GET", "/").statusCode()).isEqualTo(404);
    HttpResponse<String> head = send("HEAD", "/status");
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
  }

  @Test
  void listensOnLoopbackWhenNoHostIsWritten() throws Exception {
    start(":0");
    assertThat(endpoint.address().socket().getAddress().isLoopbackAddress()).isTrue();
    assertThat(f.log.lines)
        .anyMatch(l -> l.startsWith("INFO serving /metrics and /status at http://127.0.0.1:"));
  }

  @Test
  void warnsWhenTheOperatorExposedItToOtherHosts() throws Exception {
    start("0.0.0.0:0");
    assertThat(endpoint.address().socket().getAddress().isAnyLocalAddress()).isTrue();
    assertThat(f.log.lines)
        .anyMatch(
            l ->
                l.startsWith("WARN the endpoint at http://0.0.0.0:")
                    && l.contains("reachable from other hosts"));
    assertThat(send("GET", "/metrics").statusCode()).isEqualTo(200);
  }

  @Test
  void closeFreesThePort() throws Exception {
    int port = start(":0").address().socket().getPort();
    send("GET", "/metrics");

    endpoint.close();
    endpoint = null;

    try (ServerSocket again = new ServerSocket()) {
      again.setReuseAddress(true);
      again.bind(new InetSocketAddress("127.0.0.1", port));
      assertThat(again.getLocalPort()).isEqualTo(port);
    }
  }

  @Test
  void refusesAPortInUse() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      assertThatThrownBy(() -> start("127.0.0.1:" + taken.getLocalPort()))
          .isInstanceOf(IOException.class);
    }
    endpoint = null;
  }

  @Test
  void servesFromDaemonThreadsNamedLeveeHttp() throws Exception {
    start(":0");
    send("GET", "/status");
    assertThat(Thread.getAllStackTraces().keySet())
        .filteredOn(t -> t.getName().equals("levee-http"))
        .isNotEmpty()
        .allMatch(Thread::isDaemon);
  }
}
