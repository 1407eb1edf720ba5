package io.levee.agent.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.engine.Engine;
import io.levee.rules.engine.Sleeper;
import io.levee.rules.load.RulesLoader;
import io.levee.rules.model.RuleSet;
import io.levee.rules.policy.adaptive.ManualCpu;
import io.levee.rules.time.ManualClock;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StatusTableTest {
  private final ManualClock clock = new ManualClock();
  private final Engine engine = new Engine(clock, new ManualCpu(0), Sleeper.SYSTEM);

  @Test
  void showsEachResourceWithStateLimitAndCountsByReason() {
    engine.apply(
        rules(
            """
            version: 1
            settings: { reload: 500ms }
            resources:
              - name: api
                match: { http: { urls: ["http://api/**"] } }
                concurrency: { max: 1 }
                circuit-breaker: { minimum-calls: 5 }
              - name: watched
                mode: monitor
                match: { http: { urls: ["http://watched/**"] } }
                rate-limit: { rate: 1/s, burst: 1 }
            """));
    Object held = engine.http("GET", "http://api/x");
    engine.http("GET", "http://api/x");
    Object watched = engine.http("GET", "http://watched/x");
    engine.complete(watched, 0, 200, null);
    watched = engine.http("GET", "http://watched/x");
    engine.complete(watched, 0, 200, null);

    String table =
        StatusTable.render(engine.rules(), Paths.get("/etc/levee.yaml"), engine.status());

    assertThat(table)
        .isEqualTo(
            """
            rules: /etc/levee.yaml (2 resources, reload 500ms)
            RESOURCE  KIND  MODE     BREAKER  LIMIT  IN-FLIGHT  PASSED  BLOCKED
            api       http  enforce  closed   1      1          1       concurrency=1
            watched   http  monitor  -        -      0          2       would rate-limit=1
            """);
    engine.complete(held, 0, 200, null);
  }

  @Test
  void showsADueProbeThenTheRampAfterClosing() {
    engine.apply(
        rules(
            """
            version: 1
            resources:
              - name: partner
                match: { http: { urls: ["http://partner/**"] } }
                circuit-breaker: { minimum-calls: 2, open-for: 5s, half-open-calls: 1 }
            """));
    call(500);
    call(500);
    assertThat(row("partner")).contains(" open ");
    clock.advance(5, TimeUnit.SECONDS);

    assertThat(StatusTable.render(engine.rules(), Paths.get("/etc/levee.yaml"), engine.status()))
        .isEqualTo(
            """
            rules: /etc/levee.yaml (1 resource, reload 2s)
            RESOURCE  KIND  MODE     BREAKER          LIMIT  IN-FLIGHT  PASSED  BLOCKED
            partner   http  enforce  open, probe due  -      0          2       0
            """);

    call(200);
    assertThat(row("partner")).contains(" closed, ramping 10 % ");
    clock.advance(1, TimeUnit.SECONDS);
    assertThat(row("partner")).contains(" closed, ramping 25 % ");
    clock.advance(1, TimeUnit.SECONDS);
    assertThat(row("partner")).contains(" closed, ramping 50 % ");
    clock.advance(1, TimeUnit.SECONDS);
    assertThat(row("partner")).contains(" closed ").doesNotContain("ramping");
  }

  @Test
  void showsTheClusterItsConnectionAndEachResourcesScope() {
    engine.apply(
        rules(
            """
            version: 1
            settings:
              cluster: { redis: "redis://levee:secret@redis.example:6380/2", name: shop }
            resources:
              - name: partner
                match: { http: { urls: ["http://partner/**"] } }
                rate-limit: { rate: 100/s, scope: cluster }
              - name: api
                match: { http: { urls: ["http://api/**"] } }
                rate-limit: { rate: 10/s }
            """));

    String table =
        StatusTable.render(
            engine.rules(), Paths.get("/etc/levee.yaml"), engine.status(), Engine.CLUSTER_DOWN);

    assertThat(table)
        .isEqualTo(
            """
            rules: /etc/levee.yaml (2 resources, reload 2s)
            cluster: shop on redis://levee@redis.example:6380/2, unreachable
            RESOURCE  KIND  MODE     SCOPE      BREAKER  LIMIT  IN-FLIGHT  PASSED  BLOCKED
            partner   http  enforce  cluster/0  -        -      0          0       0
            api       http  enforce  local      -        -      0          0       0
            no call has matched partner, api since the rules were loaded (java -jar\
             levee-agent.jar explain RULES CALL says why a call misses)
            """)
        .doesNotContain("secret");
  }

  @Test
  void namesOnlyTheResourcesNoCallHasMatched() {
    engine.apply(
        rules(
            """
            version: 1
            resources:
              - name: used
                match: { http: { urls: ["http://partner/**"] } }
                rate-limit: { rate: 1/s, burst: 1 }
              - name: refused-only
                match: { http: { urls: ["http://api/**"] } }
                rate-limit: { rate: 1/h, burst: 1 }
              - name: idle
                match: { http: { urls: ["http://idle/**"] } }
                rate-limit: { rate: 10/s }
            """));
    engine.http("GET", "http://partner/a");
    engine.http("GET", "http://api/a");
    engine.http("GET", "http://api/b");

    String table =
        StatusTable.render(engine.rules(), Paths.get("/etc/levee.yaml"), engine.status());

    assertThat(table)
        .endsWith(
            "no call has matched idle since the rules were loaded (java -jar levee-agent.jar"
                + " explain RULES CALL says why a call misses)\n");
    assertThat(engine.status()).extracting(r -> r.matched()).containsExactly(1L, 2L, 0L);
  }

  @Test
  void saysSoWhenNothingIsInForce() {
    assertThat(StatusTable.render(RuleSet.EMPTY, null, engine.status()))
        .isEqualTo("rules: none (0 resources, reload 2s)\nno resources in force\n");
  }

  private void call(int status) {
    engine.complete(engine.http("GET", "http://partner/x"), clock.nanoTime(), status, null);
  }

  private String row(String resource) {
    for (String line : StatusTable.render(engine.rules(), null, engine.status()).split("\n", -1)) {
      if (line.startsWith(resource + " ")) {
        return line;
      }
    }
    throw new AssertionError("no row for " + resource);
  }

  private static RuleSet rules(String yaml) {
    return RulesLoader.parse("test.yaml", yaml).rules();
  }
}
