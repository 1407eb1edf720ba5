package io.levee.agent.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.levee.agent.testing.EngineFixture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SamplesTest {
  private final EngineFixture f = new EngineFixture().apply(StatusJsonTest.RULES);
  private final Samples samples = new Samples(f.engine, f.cpu);

  private JsonNode since(long millis) throws Exception {
    return new ObjectMapper().readTree(samples.since(millis));
  }

  @Test
  void copiesTheCountersLimitInFlightBreakerAndCpuOfEachResource() throws Exception {
    samples.take(1_000);
    StatusJsonTest.traffic(f);
    samples.take(2_000);

    JsonNode json = since(0);

    assertThat(json.get("reasons").toString())
        .isEqualTo("[\"circuit-open\",\"rate-limit\",\"concurrency\",\"adaptive\",\"system\"]");
    JsonNode first = json.get("samples").get(0);
    JsonNode last = json.get("samples").get(1);
    assertThat(first.get("t").asLong()).isEqualTo(1_000);
    assertThat(first.get("cpu").asDouble()).isEqualTo(0.25);
    assertThat(first.get("resources").get(0).get("passed").asLong()).isZero();
    JsonNode checkout = last.get("resources").get(0);
    assertThat(checkout.get("name").asText()).isEqualTo("checkout");
    assertThat(checkout.get("passed").asLong()).isEqualTo(2);
    assertThat(checkout.get("blocked").toString()).isEqualTo("[0,1,0,0,0]");
    assertThat(checkout.get("limit").asInt()).isEqualTo(5);
    assertThat(checkout.get("inFlight").asInt()).isEqualTo(1);
    assertThat(checkout.get("breaker").asInt()).isEqualTo(-1);
    JsonNode payments = last.get("resources").get(1);
    assertThat(payments.get("breaker").asInt()).isEqualTo(1);
    assertThat(payments.get("breakerRamp").asInt()).isZero();
    assertThat(payments.get("breakerProbeDue").asBoolean()).isFalse();
    assertThat(payments.get("blocked").toString()).isEqualTo("[1,0,0,0,0]");
    assertThat(payments.get("limit").asInt()).isEqualTo(-1);
    JsonNode search = last.get("resources").get(2);
    assertThat(search.get("wouldBlock").toString()).isEqualTo("[0,0,1,0,0]");
    assertThat(last.get("resources").get(3).get("name").asText()).isEqualTo("system");
  }

  @Test
  void copiesADueProbeAndTheRampAfterClosing() throws Exception {
    StatusJsonTest.traffic(f);
    f.clock.advance(5, TimeUnit.SECONDS);
    samples.take(1_000);
    for (int i = 0; i < 5; i++) {
      f.complete(f.engine.http("GET", "http://pay.example/x"), 200, 1);
    }
    samples.take(2_000);

    JsonNode json = since(0).get("samples");

    JsonNode due = json.get(0).get("resources").get(1);
    assertThat(due.get("breaker").asInt()).isEqualTo(1);
    assertThat(due.get("breakerProbeDue").asBoolean()).isTrue();
    JsonNode ramping = json.get(1).get("resources").get(1);
    assertThat(ramping.get("breaker").asInt()).isZero();
    assertThat(ramping.get("breakerRamp").asInt()).isEqualTo(10);
    assertThat(ramping.get("breakerProbeDue").asBoolean()).isFalse();
  }

  @Test
  void answersOnlyTheSamplesAfterTheTimeAsked() throws Exception {
    for (long t = 1; t <= 5; t++) {
      samples.take(t * 1_000);
    }
    JsonNode json = since(3_000).get("samples");
    assertThat(json).hasSize(2);
    assertThat(json.get(0).get("t").asLong()).isEqualTo(4_000);
    assertThat(json.get(1).get("t").asLong()).isEqualTo(5_000);
    assertThat(since(5_000).get("samples")).isEmpty();
  }

  @Test
  void keepsOnlyTheLastMinutesOldestFirst() throws Exception {
    int taken = Samples.CAPACITY + 25;
    for (long t = 1; t <= taken; t++) {
      samples.take(t * 1_000);
    }
    JsonNode json = since(0).get("samples");
    assertThat(json).hasSize(Samples.CAPACITY);
    assertThat(json.get(0).get("t").asLong()).isEqualTo(26_000);
    assertThat(json.get(Samples.CAPACITY - 1).get("t").asLong()).isEqualTo(taken * 1_000L);
  }

  @Test
  void followsTheResourcesInForceAfterAReload() throws Exception {
    samples.take(1_000);
    f.apply(
        "resources:\n  - name: other\n    match: { servlet: { paths: [\"/o/**\"] } }\n"
            + "    rate-limit: { rate: 1/s }\n");
    samples.take(2_000);
    JsonNode json = since(0).get("samples");
    assertThat(json.get(0).get("resources")).hasSize(4);
    assertThat(json.get(1).get("resources")).hasSize(1);
    assertThat(json.get(1).get("resources").get(0).get("name").asText()).isEqualTo("other");
  }
}
