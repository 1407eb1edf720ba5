package io.levee.rules.engine;

import static io.levee.rules.engine.Fixture.blocked;
import static io.levee.rules.engine.Fixture.permit;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the engine tells a {@link Decisions} listener, the tracing's source (SPEC §5.5). */
class EngineDecisionsTest {
  private final Fixture f = new Fixture();
  private final List<String> told = new ArrayList<>();

  EngineDecisionsTest() {
    f.engine.setDecisions(
        new Decisions() {
          @Override
          public void decided(String resource, String kind, String decision, String reason) {
            told.add(resource + " " + kind + " " + decision + (reason == null ? "" : " " + reason));
          }
        });
  }

  @Test
  void admittedThenBlockedByTheRateLimit() {
    f.apply(
        "resources:\n  - name: partner\n    match: { http: { urls: [\"http://x/**\"] } }\n"
            + "    rate-limit: { rate: 1/s, burst: 1 }\n");
    f.ok(permit(f.engine.http("GET", "http://x/a")));
    blocked(f.engine.http("GET", "http://x/b"));
    assertThat(f.engine.http("GET", "http://other/")).isNull();
    assertThat(told).containsExactly("partner http admitted", "partner http blocked rate-limit");
  }

  @Test
  void monitorModeTellsTheFirstPolicyThatWouldHaveRefused() {
    f.apply(
        "settings: { mode: monitor }\n"
            + "resources:\n  - name: db\n    match: { jdbc: { urls: [\"jdbc:h2:**\"] } }\n"
            + "    rate-limit: { rate: 1/s, burst: 1 }\n"
            + "    concurrency: { max: 1 }\n");
    Object first = permit(f.engine.jdbc("jdbc:h2:mem:x", "select 1"));
    Object second = permit(f.engine.jdbc("jdbc:h2:mem:x", "select 1"));
    f.ok(first);
    f.ok(second);
    assertThat(told).containsExactly("db jdbc admitted", "db jdbc would-block rate-limit");
  }

  @Test
  void theSystemRuleIsToldAsSystemAndTheResourceAfterIt() {
    f.apply(
        "system:\n  adaptive: { min-limit: 1, max-limit: 1, initial-limit: 1 }\n"
            + "resources:\n  - name: checkout\n    match: { servlet: { paths: [\"/checkout\"] } }\n"
            + "    rate-limit: { rate: 100/s }\n");
    Object first = permit(f.get("/checkout"));
    blocked(f.get("/checkout"));
    Object other = f.get("/home");
    f.ok(first);
    f.ok(permit(f.get("/home")));
    assertThat(other).isNotInstanceOf(io.levee.bootstrap.Permit.class);
    assertThat(told)
        .containsExactly(
            "checkout servlet admitted",
            "system servlet blocked system",
            "system servlet blocked system",
            "system servlet admitted");
  }

  @Test
  void aMonitoredSystemRuleTellsWouldBlock() {
    f.apply(
        "system:\n  mode: monitor\n  adaptive: { min-limit: 1, max-limit: 1, initial-limit: 1 }\n"
            + "resources: []\n");
    Object first = permit(f.get("/x"));
    Object second = permit(f.get("/y"));
    f.ok(first);
    f.ok(second);
    assertThat(told)
        .containsExactly("system servlet admitted", "system servlet would-block system");
  }

  @Test
  void aListenerThatThrowsCostsTheCallNothingAndLeaksNoPermit() {
    f.engine.setDecisions(
        new Decisions() {
          @Override
          public void decided(String resource, String kind, String decision, String reason) {
            throw new IllegalStateException("broken tracer");
          }
        });
    f.apply(
        "resources:\n  - name: partner\n    match: { http: { urls: [\"http://x/**\"] } }\n"
            + "    concurrency: { max: 1 }\n");
    Object p = permit(f.engine.http("GET", "http://x/"));
    assertThat(f.view("partner").inFlight()).isEqualTo(1);
    f.ok(p);
    assertThat(f.view("partner").inFlight()).isZero();
    f.engine.setDecisions(null);
    f.ok(permit(f.engine.http("GET", "http://x/")));
    assertThat(told).isEmpty();
  }
}
