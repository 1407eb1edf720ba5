package io.levee.rules.engine;

import static io.levee.rules.engine.Fixture.blocked;
import static io.levee.rules.engine.Fixture.permit;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Permit;
import org.junit.jupiter.api.Test;

class EnginePolicyOrderTest {
  private final Fixture f = new Fixture();

  @Test
  void tellsWhetherAConnectWouldBeDecidedWithoutDecidingIt() {
    f.apply(
        "resources:\n  - name: db\n    match: { jdbc: { urls: [\"jdbc:h2:**\"], operations: [CONNECT] } }\n"
            + "    concurrency: { max: 1 }\n"
            + "  - name: reads\n    match: { jdbc: { urls: [\"jdbc:pg:**\"], operations: [SELECT] } }\n"
            + "    concurrency: { max: 1 }\n");
    assertThat(f.engine.jdbcConnectMatches("jdbc:h2:mem:x")).isTrue();
    assertThat(f.engine.jdbcConnectMatches("jdbc:h2:mem:x")).isTrue();
    assertThat(f.engine.jdbcConnectMatches("jdbc:pg:x")).isFalse();
    assertThat(f.engine.jdbcConnectMatches("jdbc:mysql:x")).isFalse();
    // Asking took nothing: the one slot is still there.
    permit(f.engine.jdbcConnect("jdbc:h2:mem:x"));
  }

  @Test
  void tracksNothingThatNoResourceMatches() {
    f.apply(
        "resources:\n  - name: a\n    match: { servlet: { paths: [\"/a/**\"] } }\n"
            + "    concurrency: { max: 100 }\n");
    assertThat(f.get("/b")).isNull();
    assertThat(f.engine.http("GET", "http://x/")).isNull();
    assertThat(f.engine.jdbc("jdbc:h2:mem:x", "select 1")).isNull();
    assertThat(f.engine.jdbcConnect("jdbc:h2:mem:x")).isNull();
  }

  @Test
  void admitsWithOnePreallocatedPermitPerResource() {
    f.apply(
        "resources:\n  - name: a\n    match: { servlet: { paths: [\"/a/**\"] } }\n"
            + "    concurrency: { max: 100 }\n");
    Permit first = permit(f.get("/a/1"));
    Permit second = permit(f.get("/a/2"));
    assertThat(second).isSameAs(first);
    assertThat(f.view("a").passed()).isEqualTo(2);
    assertThat(f.view("a").inFlight()).isEqualTo(2);
    f.ok(first);
    f.ok(second);
    assertThat(f.view("a").inFlight()).isZero();
    assertThat(f.view("a").calls(Outcome.SUCCESS)).isEqualTo(2);
  }

  @Test
  void rateLimitRejectsBeforeAConcurrencySlotIsTaken() {
    f.apply(
        "resources:\n  - name: a\n    match: { http: { urls: [\"http://x/**\"] } }\n"
            + "    rate-limit: { rate: 1/s, burst: 1 }\n    concurrency: { max: 1 }\n");
    Object first = permit(f.engine.http("GET", "http://x/1"));
    assertThat(blocked(f.engine.http("GET", "http://x/2")).reason).isEqualTo("rate-limit");
    f.ok(first);
    f.clock.advanceMillis(1000);
    Object again = permit(f.engine.http("GET", "http://x/3"));
    f.ok(again);
    assertThat(f.view("a").blocked(Reason.RATE_LIMIT)).isEqualTo(1);
    assertThat(f.view("a").blocked(Reason.CONCURRENCY)).isZero();
  }

  @Test
  void adaptiveRejectionGivesBackTheConcurrencySlotTakenBeforeIt() {
    f.apply(
        "resources:\n  - name: a\n    match: { http: { urls: [\"http://x/**\"] } }\n"
            + "    concurrency: { max: 2 }\n"
            + "    adaptive: { min-limit: 1, max-limit: 1, initial-limit: 1 }\n");
    Object first = permit(f.engine.http("GET", "http://x/"));
    for (int i = 0; i < 5; i++) {
      assertThat(blocked(f.engine.http("GET", "http://x/")).reason).isEqualTo("adaptive");
    }
    f.ok(first);
    assertThat(f.view("a").blocked(Reason.CONCURRENCY)).isZero();
    assertThat(f.view("a").inFlight()).isZero();
    f.ok(permit(f.engine.http("GET", "http://x/")));
  }

  @Test
  void concurrencyRejectionGivesBackTheHalfOpenProbe() {
    f.apply(
        "resources:\n  - name: a\n    match: { http: { urls: [\"http://x/**\"] } }\n"
            + "    circuit-breaker: { minimum-calls: 2, open-for: 1s, half-open-calls: 2 }\n"
            + "    concurrency: { max: 1 }\n");
    f.fail(permit(f.engine.http("GET", "http://x/")));
    f.fail(permit(f.engine.http("GET", "http://x/")));
    assertThat(f.view("a").breakerState()).isEqualTo(1);
    f.clock.advanceMillis(1000);
    Object firstProbe = permit(f.engine.http("GET", "http://x/"));
    assertThat(blocked(f.engine.http("GET", "http://x/")).reason).isEqualTo("concurrency");
    f.ok(firstProbe);
    // The second probe was handed back when concurrency refused its call, so it is still there.
    f.ok(permit(f.engine.http("GET", "http://x/")));
    assertThat(f.view("a").breakerState()).isEqualTo(0);
  }

  @Test
  void breakerBlocksWithRetryAfterUntilTheNextProbe() {
    f.apply(
        "resources:\n  - name: a\n    match: { http: { urls: [\"http://x/**\"] } }\n"
            + "    circuit-breaker: { minimum-calls: 2, open-for: 5s }\n");
    f.fail(permit(f.engine.http("GET", "http://x/")));
    f.fail(permit(f.engine.http("GET", "http://x/")));
    f.clock.advanceMillis(1500);
    Blocked b = blocked(f.engine.http("GET", "http://x/"));
    assertThat(b.reason).isEqualTo("circuit-open");
    assertThat(b.status).isEqualTo(503);
    assertThat(b.retryAfterSeconds).isBetween(1, 60);
    assertThat(f.view("a").blocked(Reason.CIRCUIT_OPEN)).isEqualTo(1);
    assertThat(f.view("a").calls(Outcome.FAILURE)).isEqualTo(2);
  }

  @Test
  void rateLimitMaxWaitSleepsTheReservedTimeThenAdmits() {
    f.apply(
        "resources:\n  - name: a\n    match: { http: { urls: [\"http://x/**\"] } }\n"
            + "    rate-limit: { rate: 10/s, burst: 1, max-wait: 500ms }\n");
    f.ok(permit(f.engine.http("GET", "http://x/")));
    f.ok(permit(f.engine.http("GET", "http://x/")));
    assertThat(f.sleeps).hasSize(1);
    assertThat(f.sleeps.get(0)).isBetween(1L, 100_000_000L);
  }

  @Test
  void jdbcCallsMatchByUrlAndOperation() {
    f.apply(
        "resources:\n  - name: db\n    match: { jdbc: { urls: [\"jdbc:h2:**\"], operations: [SELECT] } }\n"
            + "    concurrency: { max: 1 }\n");
    Object select = permit(f.engine.jdbc("jdbc:h2:mem:x", "SELECT * FROM t"));
    assertThat(f.engine.jdbc("jdbc:h2:mem:x", "DELETE FROM t")).isNull();
    assertThat(blocked(f.engine.jdbc("jdbc:h2:mem:x", "SELECT 1")).sqlState).isEqualTo("53000");
    f.ok(select);
  }
}
