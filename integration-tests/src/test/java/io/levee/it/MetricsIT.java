package io.levee.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.deploy.DocRecipe;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Programs;
import io.levee.it.support.RulesFile;
import io.levee.it.support.TestPaths;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The packaged agent with the {@code http} option in a forked Tomcat application: after a scripted
 * scenario, {@code /metrics} reports exactly its numbers, {@code /status} the same table, and a
 * real Prometheus server scraping the endpoint every second answers a query with them. Limits of N
 * per hour and a breaker open for a minute keep the counts exact while the test runs.
 *
 * <p>Prometheus comes from {@code scripts/ensure-package.sh prometheus prometheus} (run by {@code
 * run-tests.sh}, which exports {@code LEVEE_PROMETHEUS}); without it the Prometheus test fails,
 * unless {@code LEVEE_SKIP_PROMETHEUS=1} skips it on purpose.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetricsIT {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: catalog
          match: { http: { urls: ["http://127.0.0.1:%d/catalog/**"] } }
          rate-limit: { rate: 3/h, burst: 3 }
        - name: payments
          match: { http: { urls: ["http://127.0.0.1:%d/pay/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 4, window: 1m, open-for: 1m }
      """;
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final Path ALERTS = TestPaths.root().resolve("docs/monitoring/levee-alerts.yml");
  private static final String BREAKER_FOR =
      "expr: max by (instance, resource) (levee_breaker_state) > 0\n        for: 1m";

  private final HttpClient http = HttpClient.newHttpClient();
  private LocalHttpServer healthy;
  private LocalHttpServer failing;
  private ForkedApp app;
  private int metricsPort;

  @BeforeAll
  void startAndRunTheScenario() {
    healthy = LocalHttpServer.start().ok();
    failing = LocalHttpServer.start().fail();
    metricsPort = freePort();
    Path rules = RulesFile.write("metrics", RULES.formatted(healthy.port(), failing.port()));
    app =
        ForkedApp.of(TomcatApp.class)
            .agent("rules=" + rules.toAbsolutePath() + ",http=127.0.0.1:" + metricsPort)
            .name("metrics")
            .start();
    AppClient client = new AppClient(app);
    String catalog = URLEncoder.encode(healthy.url("/catalog/items"), StandardCharsets.UTF_8);
    assertThat(client.get("/http?repeat=5&url=" + catalog).body())
        .contains("responses=3", "leveeExceptions=2");
    String pay = URLEncoder.encode(failing.url("/pay/charge"), StandardCharsets.UTF_8);
    assertThat(client.get("/http?repeat=7&method=POST&url=" + pay).body())
        .contains("responses=4", "leveeExceptions=3");
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
    if (healthy != null) {
      healthy.close();
    }
    if (failing != null) {
      failing.close();
    }
  }

  @Test
  void metricsReportExactlyTheNumbersOfTheScenario() throws Exception {
    List<String> expected =
        List.of(
            "levee_calls_total{kind=\"http\",outcome=\"success\",resource=\"catalog\"} 3",
            "levee_blocked_total{kind=\"http\",mode=\"enforce\",reason=\"rate-limit\",resource=\"catalog\"}"
                + " 2",
            "levee_call_duration_seconds_count{kind=\"http\",resource=\"catalog\"} 3",
            "levee_inflight{resource=\"catalog\"} 0",
            "levee_calls_total{kind=\"http\",outcome=\"failure\",resource=\"payments\"} 4",
            "levee_calls_total{kind=\"http\",outcome=\"success\",resource=\"payments\"} 0",
            "levee_blocked_total{kind=\"http\",mode=\"enforce\",reason=\"circuit-open\",resource=\"payments\"}"
                + " 3",
            "levee_breaker_state{resource=\"payments\"} 1",
            "levee_rules_reloads_total{result=\"applied\"} 0");
    // The application answers the test after its calls completed, but read the endpoint until it
    // agrees rather than assume the order of two threads.
    List<String> lines = List.of();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < deadline) {
      HttpResponse<String> r = get("/metrics");
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type").orElse(""))
          .startsWith("text/plain; version=0.0.4");
      lines = r.body().lines().toList();
      if (lines.containsAll(expected)) {
        break;
      }
      Thread.sleep(100);
    }
    assertThat(lines).containsAll(expected);
    assertThat(app.leveeLines())
        .anyMatch(l -> l.contains("circuit breaker payments: closed -> open"))
        .anyMatch(
            l ->
                l.contains(
                    "serving the live page, /metrics and /status at http://127.0.0.1:"
                        + metricsPort));
  }

  @Test
  void statusShowsTheSameTableAsJson() throws Exception {
    HttpResponse<String> r = get("/status");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
    assertThat(r.body())
        .contains(
            "{\"name\":\"catalog\",\"kind\":\"http\",\"mode\":\"enforce\",\"breaker\":null,\"limit\":null")
        .contains("\"rate-limit\":2")
        .contains(
            "{\"name\":\"payments\",\"kind\":\"http\",\"mode\":\"enforce\",\"breaker\":\"open\"")
        .contains("\"circuit-open\":3");
  }

  @Test
  void aPrometheusServerScrapingTheEndpointAnswersWithTheSameNumbers() throws Exception {
    Path prometheus = prometheusBinary();
    Path dir = Files.createTempDirectory(TestPaths.workDir(), "prometheus-");
    int port = freePort();
    // The shipped alert rules as they are, but for the minute a breaker must stay open: the
    // scenario's breaker (open-for: 1m) stays open, and a test does not wait a minute for it.
    String alerts = Files.readString(ALERTS);
    assertThat(alerts).contains(BREAKER_FOR);
    Files.writeString(
        dir.resolve("levee-alerts.yml"),
        alerts.replace(BREAKER_FOR, BREAKER_FOR.replace("for: 1m", "for: 2s")));
    Files.writeString(
        dir.resolve("prometheus.yml"),
        """
        global: { scrape_interval: 1s, evaluation_interval: 1s }
        rule_files: [ "levee-alerts.yml" ]
        scrape_configs:
          - job_name: levee
            scrape_interval: 1s
            static_configs: [ { targets: ["127.0.0.1:%d"] } ]
        """
            .formatted(metricsPort));
    Process server =
        new ProcessBuilder(
                prometheus.toString(),
                "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("prometheus.log").toFile())
            .start();
    try {
      String base = "http://127.0.0.1:" + port;
      assertThat(query(base, "levee_blocked_total{resource=\"payments\",reason=\"circuit-open\"}"))
          .isEqualTo("3");
      assertThat(
              query(
                  base,
                  "levee_blocked_total{resource=\"catalog\",reason=\"rate-limit\",mode=\"enforce\"}"))
          .isEqualTo("2");
      assertThat(query(base, "levee_calls_total{resource=\"payments\",outcome=\"failure\"}"))
          .isEqualTo("4");
      assertThat(
              query(
                  base,
                  "ALERTS{alertname=\"LeveeBreakerOpen\",alertstate=\"firing\","
                      + "resource=\"payments\"}"))
          .as("the shipped alert fires while the scenario's breaker stays open")
          .isEqualTo("1");
      theDashboardQueriesAreValidPromQlWithData(base);
    } finally {
      server.destroy();
      server.waitFor();
    }
  }

  @Test
  void theShippedAlertRulesPassPromtool() throws Exception {
    Path promtool = prometheusBinary().resolveSibling("promtool");
    Process check =
        new ProcessBuilder(promtool.toString(), "check", "rules", ALERTS.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(check.waitFor()).as(out).isZero();
    assertThat(out).contains("SUCCESS: 4 rules found");
  }

  /**
   * The manual's scrape configuration, beside the shipped alert rules it names, as promtool reads
   * it.
   */
  @Test
  void theManualsScrapeConfigPassesPromtool() throws Exception {
    Path promtool = prometheusBinary().resolveSibling("promtool");
    Path dir = Files.createTempDirectory(TestPaths.workDir(), "scrape-config-");
    Files.copy(ALERTS, dir.resolve("levee-alerts.yml"));
    Path config = DocRecipe.named("prometheus-scrape").writeTo(dir.resolve("prometheus.yml"));
    Process check =
        new ProcessBuilder(promtool.toString(), "check", "config", config.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(check.waitFor()).as(out).isZero();
    assertThat(out).contains("SUCCESS: 1 rule files found", "SUCCESS: 4 rules found");
  }

  /**
   * Every query of the shipped Grafana dashboard, its variables set to all, is one this Prometheus
   * accepts; those of the kinds the scenario called (http) and of the breakers find series.
   */
  private void theDashboardQueriesAreValidPromQlWithData(String base) throws Exception {
    String dashboard =
        Files.readString(TestPaths.root().resolve("docs/monitoring/levee-dashboard.json"));
    Matcher expr = Pattern.compile("\"expr\": \"((?:[^\"\\\\]|\\\\.)*)\"").matcher(dashboard);
    int queries = 0;
    List<String> withData = new ArrayList<>();
    while (expr.find()) {
      String promql =
          expr.group(1)
              .replace("\\\"", "\"")
              .replace("\\\\", "\\")
              .replace("$instance", ".*")
              .replace("$resource", ".*");
      String answer =
          http.send(
                  HttpRequest.newBuilder(
                          URI.create(
                              base
                                  + "/api/v1/query?query="
                                  + URLEncoder.encode(promql, StandardCharsets.UTF_8)))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(answer).as(promql).contains("\"status\":\"success\"");
      if (answer.contains("\"metric\"")) {
        withData.add(promql);
      }
      queries++;
    }
    assertThat(queries).as("queries in the dashboard").isGreaterThanOrEqualTo(20);
    assertThat(withData)
        .anyMatch(q -> q.contains("levee_blocked_total{kind=\"http\""))
        .anyMatch(q -> q.contains("levee_breaker_state"));
  }

  /** The single value Prometheus answers for {@code promql}, once it has one. */
  private String query(String base, String promql) throws Exception {
    Pattern value = Pattern.compile("\"value\":\\[[0-9.e+]+,\"([^\"]+)\"\\]");
    URI uri =
        URI.create(
            base + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    String last = "";
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        last =
            http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString())
                .body();
        Matcher m = value.matcher(last);
        if (m.find()) {
          assertThat(m.find()).as("one series for %s in %s", promql, last).isFalse();
          m.reset();
          m.find();
          return m.group(1);
        }
      } catch (IOException notUpYet) {
        last = notUpYet.toString();
      }
      Thread.sleep(250);
    }
    return fail("Prometheus had no value for %s within %s: %s", promql, PATIENCE, last);
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static Path prometheusBinary() {
    return Programs.find("prometheus", "LEVEE_PROMETHEUS", "LEVEE_SKIP_PROMETHEUS");
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
