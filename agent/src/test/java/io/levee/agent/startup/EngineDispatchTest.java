package io.levee.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.levee.agent.http.HttpUrlConnectionIntegration;
import io.levee.agent.log.AgentLog;
import io.levee.agent.log.ErrorLog;
import io.levee.agent.method.MethodWeaving;
import io.levee.agent.testing.TestAgent;
import io.levee.agent.testing.TestServer;
import io.levee.bootstrap.Levee;
import io.levee.rules.engine.Engine;
import io.levee.rules.engine.Sleeper;
import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RulesLoader;
import io.levee.rules.policy.adaptive.ManualCpu;
import io.levee.rules.time.Clock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The whole path of an http call: advice, bridge, {@link LeveeDispatcher}, engine, and back. */
class EngineDispatchTest {
  private static TestServer server;
  private final ByteArrayOutputStream log = new ByteArrayOutputStream();

  @BeforeAll
  static void instrument() throws IOException {
    TestAgent.install(new HttpUrlConnectionIntegration());
    server = new TestServer();
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @AfterEach
  void uninstall() {
    Levee.install(null);
  }

  @Test
  void secondCallOverTheRateIsBlockedWithTheResourceNamed() throws IOException {
    install(
        """
        version: 1
        resources:
          - name: local-api
            match:
              http: { urls: ["http://127.0.0.1:*/status/**"] }
            rate-limit: { rate: 1/h, burst: 1 }
        """);

    assertThat(open(server.url(200)).getResponseCode()).isEqualTo(200);
    int served = server.requests.get();
    HttpURLConnection second = open(server.url(200));

    assertThatThrownBy(second::getResponseCode)
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("levee:")
        .hasMessageContaining("local-api");
    assertThat(server.requests.get()).isEqualTo(served);
  }

  @Test
  void blockedCallWithFallbackAnswersFromTheRulesFile() throws IOException {
    install(
        """
        version: 1
        resources:
          - name: local-api
            match:
              http: { urls: ["http://127.0.0.1:*/status/**"] }
            rate-limit: { rate: 1/h, burst: 1 }
            on-block:
              fallback: { status: 503, body: '{"status":"degraded"}', headers: { Content-Type: application/json } }
        """);
    open(server.url(200)).getResponseCode();

    HttpURLConnection c = open(server.url(200));

    assertThat(c.getResponseCode()).isEqualTo(503);
    assertThat(c.getContentType()).isEqualTo("application/json");
    assertThat(new String(c.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
        .isEqualTo("{\"status\":\"degraded\"}");
  }

  @Test
  void callsNoResourceMatchesAreLeftAlone() throws IOException {
    install(
        """
        version: 1
        resources:
          - name: elsewhere
            match:
              http: { urls: ["https://pay.example.com/**"] }
            concurrency: { max: 1 }
        """);

    for (int i = 0; i < 3; i++) {
      assertThat(open(server.url(200)).getResponseCode()).isEqualTo(200);
    }
  }

  private void install(String yaml) {
    LoadResult loaded = RulesLoader.parse("test.yaml", yaml);
    assertThat(loaded.errors()).isEmpty();
    Engine engine = new Engine(Clock.SYSTEM, new ManualCpu(0), Sleeper.SYSTEM);
    engine.apply(loaded.rules());
    AgentLog agentLog = new AgentLog(new PrintStream(log, true), AgentLog.Level.INFO);
    Levee.install(
        new LeveeDispatcher(
            engine, new MethodWeaving(agentLog), new ErrorLog(agentLog, Clock.SYSTEM)));
  }

  private static HttpURLConnection open(String url) throws IOException {
    return (HttpURLConnection) new URL(url).openConnection();
  }
}
