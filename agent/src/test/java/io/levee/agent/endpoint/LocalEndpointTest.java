package io.levee.agent.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.levee.agent.metrics.LeveeMeters;
import io.levee.agent.testing.EngineFixture;
import io.levee.rules.load.RuleError;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LocalEndpointTest {
  private final EngineFixture f = new EngineFixture().apply(StatusJsonTest.RULES);
  private final HttpClient client = HttpClient.newHttpClient();
  private final RulesEvents events = new RulesEvents(1_764_756_049_000L);
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
    endpoint =
        LocalEndpoint.start(
            EndpointAddress.parse(http), f.engine, meters.registry(), f.cpu, events, f.log);
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
  void statusSaysWhenTheRulesWereLoadedAndTheLastRejectedReload() throws Exception {
    start(":0");
    JsonNode before = new ObjectMapper().readTree(send("GET", "/status").body());
    assertThat(before.get("loaded").asText()).isEqualTo("2025-12-03T10:00:49Z");
    assertThat(before.get("rejected").isNull()).isTrue();

    events.rejected(
        1_764_756_060_000L,
        "/etc/levee.yaml",
        List.of(new RuleError("/etc/levee.yaml", 3, 5, "resources[0]", "no match")));
    JsonNode after = new ObjectMapper().readTree(send("GET", "/status").body());
    assertThat(after.get("rejected").get("file").asText()).isEqualTo("/etc/levee.yaml");
    assertThat(after.get("rejected").get("at").asText()).isEqualTo("2025-12-03T10:01:00Z");
    assertThat(after.get("rejected").get("errors").get(0).asText()).contains("3:5", "no match");

    events.applied(1_764_756_070_000L);
    JsonNode fixed = new ObjectMapper().readTree(send("GET", "/status").body());
    assertThat(fixed.get("rejected").isNull()).isTrue();
  }

  @Test
  void servesTheLivePageSelfContained() throws Exception {
    start(":0");
    HttpResponse<String> page = send("GET", "/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    assertThat(page.body()).contains("<title>Levee</title>", "fetch(\"samples?since=");
    // Nothing from elsewhere: no script, style, font or image by URL.
    assertThat(page.body()).doesNotContainPattern("(src|href)=\"?(https?:)?//");
    assertThat(page.body()).doesNotContain("@import", "url(");
  }

  @Test
  void servesTheSamplesTheSamplerTook() throws Exception {
    start(":0");
    StatusJsonTest.traffic(f);
    JsonNode json = null;
    for (int i = 0; i < 50; i++) {
      json = new ObjectMapper().readTree(send("GET", "/samples").body());
      if (json.get("samples").size() > 0) {
        break;
      }
      Thread.sleep(100);
    }
    assertThat(json.get("samples")).isNotEmpty();
    long t = json.get("samples").get(0).get("t").asLong();
    assertThat(json.get("samples").get(0).get("resources").get(0).get("name").asText())
        .isEqualTo("checkout");
    JsonNode later = new ObjectMapper().readTree(send("GET", "/samples?since=" + t).body());
    for (JsonNode s : later.get("samples")) {
      assertThat(s.get("t").asLong()).isGreaterThan(t);
    }
    assertThat(Thread.getAllStackTraces().keySet())
        .filteredOn(th -> th.getName().equals("levee-samples"))
        .isNotEmpty()
        .allMatch(Thread::isDaemon);
  }

  @Test
  void answersOnlyGetAndHeadOnItsPaths() throws Exception {
    start(":0");
    assertThat(send("POST", "/metrics").statusCode()).isEqualTo(405);
    assertThat(send("POST", "/").statusCode()).isEqualTo(405);
    assertThat(send("GET", "/metrics/x").statusCode()).isEqualTo(404);
    assertThat(send("GET", "/index.html").statusCode()).isEqualTo(404);
    HttpResponse<String> head = send("HEAD", "/status");
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
  }

  @Test
  void listensOnLoopbackWhenNoHostIsWritten() throws Exception {
    start(":0");
    assertThat(endpoint.address().socket().getAddress().isLoopbackAddress()).isTrue();
    assertThat(f.log.lines)
        .anyMatch(
            l ->
                l.startsWith(
                    "INFO serving the live page, /metrics and /status at http://127.0.0.1:"));
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
  void closeStopsTheSampler() throws Exception {
    start(":0");
    endpoint.close();
    endpoint = null;
    Thread.sleep(100);
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(th -> th.getName().equals("levee-samples") && th.isAlive());
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
