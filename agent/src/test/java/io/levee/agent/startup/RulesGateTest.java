package io.levee.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.log.AgentLog;
import io.levee.agent.testing.RecordingDispatcher;
import io.levee.agent.testing.RecordingDispatcher.TestPermit;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RulesGateTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final AgentLog log =
      new AgentLog(new PrintStream(out, true, StandardCharsets.UTF_8), AgentLog.Level.INFO);
  private final TestPermit permit = new TestPermit(0);
  private final RecordingDispatcher real = new RecordingDispatcher().answering(permit);

  @Test
  void aDecisionBeforeTheRulesWaitsForThemAndIsDecidedByTheAgent() throws Exception {
    RulesGate gate = new RulesGate(real, log, 60_000);
    CompletableFuture<Object> decision =
        CompletableFuture.supplyAsync(() -> gate.jdbcEnter("jdbc:h2:mem:x", "SELECT 1"));
    Thread.sleep(100);
    assertThat(decision).isNotDone();
    assertThat(real.decisions).isEmpty();

    gate.open(true);
    assertThat(decision.get(10, TimeUnit.SECONDS)).isSameAs(permit);
    assertThat(real.decisions).hasSize(1);
    assertThat(gate.servletEnter("GET", "/", null, null)).isSameAs(permit);
  }

  @Test
  void aFailedStartLetsEveryCallThroughUntracked() throws Exception {
    RulesGate gate = new RulesGate(real, log, 60_000);
    CompletableFuture<Object> waiting =
        CompletableFuture.supplyAsync(() -> gate.httpEnter("GET", "http://partner/x"));
    Thread.sleep(50);
    gate.open(false);
    assertThat(waiting.get(10, TimeUnit.SECONDS)).isNull();
    assertThat(gate.jdbcConnect("jdbc:h2:mem:x")).isNull();
    assertThat(real.decisions).isEmpty();
  }

  @Test
  void aStartThatTakesTooLongFailsOpenAndSaysSoOnce() {
    RulesGate gate = new RulesGate(real, log, 20);
    assertThat(gate.httpEnter("GET", "http://partner/x")).isNull();
    assertThat(gate.jdbcEnter("jdbc:h2:mem:x", null)).isNull();
    assertThat(real.decisions).isEmpty();
    String logged = out.toString(StandardCharsets.UTF_8);
    assertThat(logged).contains("the rules were not in force 20 ms after the start");
    assertThat(logged.split("not in force", -1)).hasSize(2);

    gate.open(true);
    assertThat(gate.httpEnter("GET", "http://partner/x")).isSameAs(permit);
  }

  @Test
  void theStartingThreadNeverWaitsForItself() {
    RulesGate gate = new RulesGate(real, log, 60_000);
    gate.startedBy(Thread.currentThread());
    assertThat(gate.jdbcEnter("jdbc:h2:mem:x", "SELECT 1")).isNull();
    assertThat(real.decisions).isEmpty();
  }

  @Test
  void whatFollowsADecisionGoesStraightToTheAgent() {
    RulesGate gate = new RulesGate(real, log, 60_000);
    gate.exit(permit, 0, 200, null);
    assertThat(real.outcomes).hasSize(1);
  }
}
