package io.levee.rules.engine;

import static io.levee.rules.engine.Fixture.blocked;
import static io.levee.rules.engine.Fixture.permit;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.Blocked;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The priorities of servlet resources under a full {@code system} limit of 8: sheddable requests
 * stop at 7 (the top eighth, one call, is kept for the others), normal ones at 8, critical ones
 * once 8 critical requests are in flight.
 */
class EnginePriorityTest {
  private static final String RESOURCES =
      "resources:\n"
          + "  - name: health\n    match: { servlet: { paths: [\"/health\"] } }\n"
          + "    priority: critical\n"
          + "  - name: checkout\n    match: { servlet: { paths: [\"/checkout/**\"] } }\n"
          + "    priority: critical\n    concurrency: { max: 100 }\n"
          + "  - name: export\n    match: { servlet: { paths: [\"/export/**\"] } }\n"
          + "    priority: sheddable\n";

  private final Fixture f = new Fixture();
  private final List<Object> held = new ArrayList<>();

  private EnginePriorityTest limit(int limit, String mode) {
    f.apply(
        "system:\n  mode: "
            + mode
            + "\n  adaptive: { min-limit: "
            + limit
            + ", max-limit: "
            + limit
            + ", initial-limit: "
            + limit
            + " }\n"
            + RESOURCES);
    return this;
  }

  private void hold(String path, int times) {
    for (int i = 0; i < times; i++) {
      held.add(permit(f.get(path)));
    }
  }

  private void releaseAll() {
    for (Object p : held) {
      f.ok(p);
    }
    held.clear();
  }

  @Test
  void shedsSheddableRequestsWhileNormalOnesStillPass() {
    limit(8, "enforce");
    hold("/orders", 7);
    Blocked shed = blocked(f.get("/export/all"));
    assertThat(shed.reason).isEqualTo("system");
    assertThat(shed.resource).isEqualTo("system");
    assertThat(shed.status).isEqualTo(503);
    hold("/orders", 1);
    assertThat(blocked(f.get("/orders")).reason).isEqualTo("system");
    assertThat(f.view("export").blocked(Reason.SYSTEM)).isEqualTo(1);
    assertThat(f.view("system").blocked(Reason.SYSTEM)).isEqualTo(2);
    releaseAll();
    assertThat(f.view("system").inFlight()).isZero();
  }

  @Test
  void aSheddableRequestStopsBelowTheTopEighthOfALargerLimit() {
    limit(32, "enforce");
    hold("/orders", 1);
    hold("/export/a", 27);
    assertThat(blocked(f.get("/export/b")).reason).isEqualTo("system");
    hold("/orders", 4);
    assertThat(f.engine.resources().get(3).name()).isEqualTo("system");
    assertThat(((SystemRuntime) f.view("system")).inFlight()).isEqualTo(32);
    releaseAll();
  }

  @Test
  void sheddableRequestsUseTheWholeLimitWhenNothingElseWantsIt() {
    limit(8, "enforce");
    hold("/export/a", 8);
    assertThat(blocked(f.get("/export/b")).reason).isEqualTo("system");
    releaseAll();
  }

  @Test
  void admitsCriticalRequestsPastAFullLimitUntilCriticalOnesAloneFillIt() {
    limit(8, "enforce");
    hold("/orders", 8);
    assertThat(blocked(f.get("/orders")).reason).isEqualTo("system");
    hold("/health", 5);
    hold("/checkout/pay", 3);
    SystemRuntime system = (SystemRuntime) f.view("system");
    assertThat(system.criticalInFlight()).isEqualTo(8);
    assertThat(system.inFlight()).isEqualTo(16);
    Blocked refused = blocked(f.get("/checkout/pay"));
    assertThat(refused.reason).isEqualTo("system");
    assertThat(f.view("checkout").blocked(Reason.SYSTEM)).isEqualTo(1);
    assertThat(f.view("checkout").inFlight()).isEqualTo(3);
    releaseAll();
    assertThat(system.criticalInFlight()).isZero();
    assertThat(system.inFlight()).isZero();
  }

  @Test
  void aCriticalRequestPastTheLimitTakesThePermitThatComesFreeNext() {
    limit(8, "enforce");
    hold("/orders", 8);
    Object critical = permit(f.get("/health"));
    f.ok(held.remove(0));
    assertThat(blocked(f.get("/orders")).reason).isEqualTo("system");
    f.ok(held.remove(0));
    hold("/orders", 1);
    assertThat(blocked(f.get("/orders")).reason).isEqualTo("system");
    f.ok(critical);
    hold("/orders", 1);
    releaseAll();
    assertThat(((SystemRuntime) f.view("system")).inFlight()).isZero();
  }

  @Test
  void aCriticalResourceStillAppliesItsOwnPolicies() {
    f.apply(
        "system:\n  adaptive: { min-limit: 8, max-limit: 8, initial-limit: 8 }\n"
            + "resources:\n"
            + "  - name: checkout\n    match: { servlet: { paths: [\"/checkout/**\"] } }\n"
            + "    priority: critical\n    concurrency: { max: 2 }\n");
    hold("/checkout/a", 2);
    assertThat(blocked(f.get("/checkout/b")).reason).isEqualTo("concurrency");
    SystemRuntime system = (SystemRuntime) f.view("system");
    assertThat(system.criticalInFlight()).isEqualTo(2);
    assertThat(system.inFlight()).isEqualTo(2);
    releaseAll();
    assertThat(system.criticalInFlight()).isZero();
  }

  @Test
  void countsInMonitorModeWhatThePrioritiesWouldShedAndBlocksNothing() {
    limit(8, "monitor");
    hold("/orders", 7);
    hold("/export/a", 1);
    hold("/health", 2);
    hold("/orders", 1);
    assertThat(f.view("export").wouldBlock(Reason.SYSTEM)).isEqualTo(1);
    assertThat(f.view("health").wouldBlock(Reason.SYSTEM)).isZero();
    assertThat(f.view("system").wouldBlock(Reason.SYSTEM)).isEqualTo(2);
    assertThat(f.view("system").blocked(Reason.SYSTEM)).isZero();
    releaseAll();
    SystemRuntime system = (SystemRuntime) f.view("system");
    assertThat(system.inFlight()).isZero();
    assertThat(system.criticalInFlight()).isZero();
  }

  @Test
  void aReloadThatChangesAPriorityAppliesToNewRequestsAndReturnsTheOldPermits() {
    limit(8, "enforce");
    hold("/orders", 6);
    hold("/health", 2);
    SystemRuntime system = (SystemRuntime) f.view("system");
    f.apply(
        "system:\n  adaptive: { min-limit: 8, max-limit: 8, initial-limit: 8 }\n"
            + "resources:\n"
            + "  - name: health\n    match: { servlet: { paths: [\"/health\"] } }\n"
            + "    priority: sheddable\n");
    assertThat(f.view("system")).isSameAs(system);
    releaseAll();
    assertThat(system.criticalInFlight()).isZero();
    assertThat(system.inFlight()).isZero();
    hold("/orders", 7);
    assertThat(blocked(f.get("/health")).reason).isEqualTo("system");
    releaseAll();
  }
}
