package io.levee.agent.otel;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.log.AgentLog;
import io.levee.agent.testing.EngineFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Without the OpenTelemetry agent (as in this JVM) the engine gets a probe that looks for its API
 * at most once per 100 ms of decisions and removes itself after its last look, logging nothing.
 * With the agent, {@code OpenTelemetryIT} shows the spans.
 */
class TracingTest {
  private final EngineFixture f =
      new EngineFixture()
          .apply(
              "resources:\n  - name: a\n    match: { servlet: { paths: [\"/a\"] } }\n"
                  + "    rate-limit: { rate: 1000/s }\n");
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final AgentLog log =
      new AgentLog(new PrintStream(out, true, StandardCharsets.UTF_8), AgentLog.Level.DEBUG);

  @Test
  void theApiIsNotHere() {
    assertThat(SpanTags.present()).isFalse();
  }

  @Test
  void aProbeLooksOncePerIntervalAndGoesAwayAfterItsLastLook() {
    Tracing.Probe probe = new Tracing.Probe(f.engine, log, f.clock);
    f.engine.setDecisions(probe);
    for (int i = 0; i < 50; i++) {
      f.complete(f.get("/a"), 200, 0);
    }
    assertThat(probe.looks()).as("50 decisions at one instant: one look").isEqualTo(1);
    for (int look = 1; look < Tracing.LOOKS; look++) {
      f.clock.advance(Tracing.LOOK_EVERY_NANOS, TimeUnit.NANOSECONDS);
      assertThat(f.engine.decisions()).isSameAs(probe);
      f.complete(f.get("/a"), 200, 0);
    }
    assertThat(probe.looks()).isEqualTo(Tracing.LOOKS);
    assertThat(f.engine.decisions()).isNull();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void startWithoutTheAgentInstallsAProbe() {
    Tracing.start(f.engine, log);
    assertThat(f.engine.decisions()).isInstanceOf(Tracing.Probe.class);
    f.complete(f.get("/a"), 200, 0);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
  }
}
