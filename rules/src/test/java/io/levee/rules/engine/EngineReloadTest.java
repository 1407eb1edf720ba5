package io.levee.rules.engine;

import static io.levee.rules.engine.Fixture.blocked;
import static io.levee.rules.engine.Fixture.permit;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineReloadTest {
  private static final String BREAKER =
      "  - name: pay\n    match: { http: { urls: [\"http://pay/**\"] } }\n"
          + "    circuit-breaker: { minimum-calls: 2, open-for: 5s }\n";
  private static final String LIMITED =
      "  - name: db\n    match: { jdbc: { urls: [\"jdbc:h2:**\"] } }\n    concurrency: { max: 1 }\n";
  private static final String SYSTEM =
      "system:\n  adaptive: { min-limit: 1, max-limit: 1, initial-limit: 1 }\n";

  private final Fixture f = new Fixture();

  @Test
  void keepsTheStateOfUnchangedResourcesAndResetsChangedOnes() {
    f.apply(SYSTEM + "resources:\n" + BREAKER + LIMITED);
    f.fail(permit(f.engine.http("GET", "http://pay/")));
    f.fail(permit(f.engine.http("GET", "http://pay/")));
    Object held = permit(f.engine.jdbc("jdbc:h2:mem:a", "select 1"));
    Object inbound = permit(f.get("/x"));
    ResourceView pay = f.view("pay");

    f.apply(SYSTEM + "resources:\n" + BREAKER + LIMITED.replace("max: 1", "max: 2"));
    assertThat(f.view("pay")).isSameAs(pay);
    assertThat(blocked(f.engine.http("GET", "http://pay/")).reason).isEqualTo("circuit-open");
    assertThat(f.view("pay").calls(Outcome.FAILURE)).isEqualTo(2);
    assertThat(f.view("db").inFlight()).isZero();
    assertThat(f.view("db").limit()).isEqualTo(2);
    assertThat(blocked(f.get("/y")).reason).isEqualTo("system");

    f.ok(held);
    f.ok(inbound);
    assertThat(f.view("system").inFlight()).isZero();
    f.apply(SYSTEM.replace("max-limit: 1", "max-limit: 3") + "resources:\n" + BREAKER);
    assertThat(f.engine.rules().resources).hasSize(1);
    assertThat(f.view("system").limit()).isEqualTo(1);
    assertThat(f.view("system").passed()).isZero();
  }

  @Test
  void permitsFromBeforeAReloadCompleteAgainstTheirOwnResource() {
    f.apply("resources:\n" + LIMITED);
    Object held = permit(f.engine.jdbc("jdbc:h2:mem:a", "select 1"));
    ResourceView before = f.view("db");
    f.apply("resources:\n" + LIMITED.replace("max: 1", "max: 3"));
    f.ok(held);
    assertThat(before.inFlight()).isZero();
    assertThat(f.view("db").inFlight()).isZero();
    assertThat(f.view("db").calls(Outcome.SUCCESS)).isZero();
  }

  @Test
  void tellsTheListenerOfBreakerTransitionsWithTheResourceName() {
    List<String> seen = new ArrayList<>();
    f.engine.setListener(
        (resource, monitor, from, to, why) -> seen.add(resource + " " + from + "->" + to));
    f.apply("resources:\n" + BREAKER);
    f.fail(permit(f.engine.http("GET", "http://pay/")));
    f.fail(permit(f.engine.http("GET", "http://pay/")));
    assertThat(seen).containsExactly("pay 0->1");
  }
}
