package io.levee.rules.engine;

import static io.levee.rules.engine.Fixture.permit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * A key source that throws (a request object in a state it did not expect) makes the decision fail:
 * the bridge then lets the call run untracked, so the engine must hold nothing for it, neither the
 * system permit, nor a concurrency slot, nor the breaker's half-open probe.
 */
class EngineFailingKeysTest {
  private static final KeySource FAILING =
      (request, spec) -> {
        throw new IllegalStateException("request recycled");
      };

  private final Fixture f =
      new Fixture()
          .apply(
              "system:\n  adaptive: { min-limit: 1, max-limit: 1, initial-limit: 1 }\n"
                  + "resources:\n  - name: shop\n    match: { servlet: { paths: [\"/shop/**\"] } }\n"
                  + "    rate-limit: { rate: 100/s, burst: 100, per: \"header:X-Tenant\" }\n"
                  + "    concurrency: { max: 1 }\n"
                  + "    circuit-breaker: { failure-rate: 50%, minimum-calls: 1, window: 10s,"
                  + " open-for: 1s, half-open-calls: 1 }\n");

  @Test
  void givesBackTheSystemPermitAndTakesNoSlotWhenTheKeySourceThrows() {
    assertThatThrownBy(() -> f.engine.servlet("GET", "/shop/a", new Object(), FAILING))
        .hasMessage("request recycled");

    assertThat(f.view("system").inFlight()).isZero();
    assertThat(f.view("shop").inFlight()).isZero();
    // Both limits of one are free again: the next call is admitted.
    f.ok(permit(f.engine.servlet("GET", "/shop/b", null, null)));
  }

  @Test
  void leavesTheHalfOpenProbeForTheNextCallWhenTheKeySourceThrows() {
    f.fail(permit(f.get("/shop/a")));
    f.clock.advanceNanos(1_000_000_000L);

    assertThatThrownBy(() -> f.engine.servlet("GET", "/shop/b", new Object(), FAILING))
        .hasMessage("request recycled");

    Object probe = permit(f.engine.servlet("GET", "/shop/c", null, null));
    f.ok(probe);
    assertThat(f.view("shop").breakerState()).isZero();
  }
}
