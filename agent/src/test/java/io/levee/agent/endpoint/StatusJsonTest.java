package io.levee.agent.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.levee.agent.log.Version;
import io.levee.agent.testing.EngineFixture;
import io.levee.rules.engine.Engine;
import io.levee.rules.engine.Outcome;
import io.levee.rules.engine.Reason;
import io.levee.rules.engine.ResourceStatus;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StatusJsonTest {
  static final String RULES =
      "system:\n  adaptive: { min-limit: 1, max-limit: 4, initial-limit: 4 }\n"
          + "resources:\n"
          + "  - name: checkout\n"
          + "    match: { servlet: { paths: [\"/checkout/**\"] } }\n"
          + "    rate-limit: { rate: 2/s, burst: 2 }\n"
          + "    concurrency: { max: 5 }\n"
          + "  - name: payments\n"
          + "    match: { http: { urls: [\"http://pay.example/**\"] } }\n"
          + "    circuit-breaker: { minimum-calls: 2, open-for: 5s }\n"
          + "  - name: search\n"
          + "    mode: monitor\n"
          + "    match: { jdbc: { urls: [\"jdbc:h2:**\"] } }\n"
          + "    concurrency: { max: 1 }\n";

  static void traffic(EngineFixture f) {
    f.complete(f.get("/checkout/a"), 200, 4);
    Object held = f.get("/checkout/b");
    EngineFixture.assertBlocked(f.get("/checkout/c"), "rate-limit");
    f.complete(f.engine.http("GET", "http://pay.example/x"), 500, 1);
    f.complete(f.engine.http("GET", "http://pay.example/x"), 500, 1);
    EngineFixture.assertBlocked(f.engine.http("GET", "http://pay.example/x"), "circuit-open");
    f.engine.jdbc("jdbc:h2:mem:a", "select 1");
    f.engine.jdbc("jdbc:h2:mem:a", "select 1");
    assertThat(held).isNotNull();
  }

  @Test
  void writesTheRowsOfEngineStatus() throws Exception {
    EngineFixture f = new EngineFixture().apply(RULES);
    traffic(f);
    List<ResourceStatus> status = f.engine.status();

    JsonNode json = new ObjectMapper().readTree(StatusJson.write("rules.yaml", status));

    assertThat(json.get("rules").asText()).isEqualTo("rules.yaml");
    assertThat(json.get("version").asText()).isEqualTo(Version.current()).isNotEqualTo("unknown");
    assertMatches(json.get("resources"), status);
    assertThat(json.get("resources").get(0).get("limit").asInt()).isEqualTo(5);
    assertThat(json.get("resources").get(1).get("breaker").asText()).isEqualTo("open");
    assertThat(json.get("resources").get(3).get("name").asText()).isEqualTo("system");
  }

  @Test
  void saysWhenAProbeIsDueAndHowFarTheRampHasGone() throws Exception {
    EngineFixture f = new EngineFixture().apply(RULES);
    traffic(f);
    f.clock.advance(5, TimeUnit.SECONDS);
    JsonNode due = payments(f);
    assertThat(due.get("breaker").asText()).isEqualTo("open");
    assertThat(due.get("breakerProbeDue").asBoolean()).isTrue();
    assertThat(due.get("breakerRamp").isNull()).isTrue();

    for (int i = 0; i < 5; i++) {
      f.complete(f.engine.http("GET", "http://pay.example/x"), 200, 1);
    }
    f.clock.advance(1, TimeUnit.SECONDS);
    JsonNode ramping = payments(f);
    assertThat(ramping.get("breaker").asText()).isEqualTo("closed");
    assertThat(ramping.get("breakerRamp").asInt()).isEqualTo(25);
    assertThat(ramping.get("breakerProbeDue").asBoolean()).isFalse();
    assertThat(json(f).get("resources").get(0).get("breakerProbeDue").isNull()).isTrue();
  }

  private static JsonNode payments(EngineFixture f) throws Exception {
    return json(f).get("resources").get(1);
  }

  private static JsonNode json(EngineFixture f) throws Exception {
    return new ObjectMapper().readTree(StatusJson.write("rules.yaml", f.engine.status()));
  }

  @Test
  void showsTheClusterWithoutItsPassword() throws Exception {
    EngineFixture f =
        new EngineFixture()
            .apply(
                """
                settings:
                  cluster: { redis: "rediss://levee:secret@redis:6379/0", name: shop }
                resources:
                  - name: partner
                    match: { http: { urls: ["http://partner/**"] } }
                    rate-limit: { rate: 100/s, scope: cluster }
                """);
    String text =
        StatusJson.write(
            "rules.yaml", f.engine.status(), f.engine.rules().settings.cluster, Engine.CLUSTER_UP);
    JsonNode json = new ObjectMapper().readTree(text);

    assertThat(text).doesNotContain("secret");
    assertThat(json.get("cluster").get("name").asText()).isEqualTo("shop");
    assertThat(json.get("cluster").get("redis").asText()).isEqualTo("rediss://levee@redis:6379/0");
    assertThat(json.get("cluster").get("connected").asBoolean()).isTrue();
    assertThat(json.get("resources").get(0).get("scope").asText()).isEqualTo("cluster");
    assertThat(json.get("resources").get(0).get("instances").asInt()).isZero();
    assertMatches(json.get("resources"), f.engine.status());
  }

  @Test
  void escapesWhatJsonCannotHoldAsIs() throws Exception {
    StringBuilder out = new StringBuilder();
    StatusJson.string(out, "C:\\rules \"new\"\n\u0001");
    assertThat(new ObjectMapper().readTree(out.toString()).asText())
        .isEqualTo("C:\\rules \"new\"\n\u0001");
  }

  /** Every row and field of {@code status}, in order, as /status must show them. */
  static void assertMatches(JsonNode rows, List<ResourceStatus> status) {
    assertThat(rows.size()).isEqualTo(status.size());
    for (int i = 0; i < status.size(); i++) {
      ResourceStatus s = status.get(i);
      JsonNode row = rows.get(i);
      assertThat(row.get("name").asText()).isEqualTo(s.name);
      assertThat(row.get("kind").asText()).isEqualTo(s.kind);
      assertThat(row.get("mode").asText()).isEqualTo(s.mode.name().toLowerCase());
      assertThat(row.get("breaker").isNull()).isEqualTo(s.breakerState < 0);
      if (s.breakerState >= 0) {
        assertThat(row.get("breaker").asText())
            .isEqualTo(new String[] {"closed", "open", "half-open"}[s.breakerState]);
      }
      assertThat(row.get("limit").isNull()).isEqualTo(s.limit < 0);
      assertThat(row.get("limit").asInt(-1)).isEqualTo(s.limit);
      assertThat(row.get("inFlight").asInt()).isEqualTo(s.inFlight);
      assertThat(row.get("passed").asLong()).isEqualTo(s.passed);
      for (Reason r : Reason.values()) {
        assertThat(row.get("blocked").get(r.key).asLong())
            .as(s.name + " " + r)
            .isEqualTo(s.blocked.get(r));
        assertThat(row.get("wouldBlock").get(r.key).asLong()).isEqualTo(s.wouldBlock.get(r));
      }
      for (Outcome o : Outcome.values()) {
        assertThat(row.get("calls").get(o.key).asLong()).isEqualTo(s.calls.get(o));
      }
      assertThat(row.get("durationSeconds").asDouble()).isEqualTo(s.durationSumNanos / 1e9);
      assertThat(row.get("keysEvicted").asLong()).isEqualTo(s.keysEvicted);
      assertThat(row.get("scope").asText()).isEqualTo(s.scope);
      assertThat(row.get("instances").asInt(-1)).isEqualTo(s.instances);
      assertThat(row.get("matched").asLong()).isEqualTo(s.matched());
      assertThat(row.get("breakerRamp").isNull()).isEqualTo(s.breakerRamp == 0);
      assertThat(row.get("breakerRamp").asInt(0)).isEqualTo(s.breakerRamp);
      assertThat(row.get("breakerProbeDue").isNull()).isEqualTo(s.breakerState < 0);
      assertThat(row.get("breakerProbeDue").asBoolean()).isEqualTo(s.probeDue);
    }
  }
}
