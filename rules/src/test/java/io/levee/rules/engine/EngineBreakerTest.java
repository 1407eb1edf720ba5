package io.levee.rules.engine;

import static io.levee.rules.engine.Fixture.blocked;
import static io.levee.rules.engine.Fixture.permit;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import org.junit.jupiter.api.Test;

/** How the engine reports calls to a circuit breaker, when the breaker changed state meanwhile. */
class EngineBreakerTest {
  private static final String URL = "http://x/";

  private final Fixture f = new Fixture();

  private Fixture apply(String mode) {
    return f.apply(
        "resources:\n  - name: a\n    mode: "
            + mode
            + "\n    match: { http: { urls: [\"http://x/**\"] } }\n"
            + "    circuit-breaker: { minimum-calls: 2, open-for: 5s, half-open-calls: 1 }\n"
            + "    failure: { ignore-exceptions: [java.io.FileNotFoundException] }\n");
  }

  private void tripAndWait() {
    f.clock.advanceMillis(1);
    f.fail(permit(f.engine.http("GET", URL)));
    f.fail(permit(f.engine.http("GET", URL)));
    assertThat(f.view("a").breakerState()).isEqualTo(1);
    f.clock.advanceMillis(5_000);
  }

  @Test
  void anIgnoredCallAdmittedWhileClosedGivesBackNoHalfOpenProbe() {
    apply("enforce");
    long start = f.clock.nanoTime();
    Object admittedWhileClosed = permit(f.engine.http("GET", URL));
    tripAndWait();
    permit(f.engine.http("GET", URL));
    assertThat(f.view("a").breakerState()).isEqualTo(2);
    blocked(f.engine.http("GET", URL));
    f.engine.complete(admittedWhileClosed, start, -1, new FileNotFoundException());
    blocked(f.engine.http("GET", URL));
  }

  @Test
  void anIgnoredProbeGivesItsProbeBack() {
    apply("enforce");
    tripAndWait();
    long start = f.clock.nanoTime();
    Object probe = permit(f.engine.http("GET", URL));
    f.engine.complete(probe, start, -1, new FileNotFoundException());
    permit(f.engine.http("GET", URL));
  }

  @Test
  void inMonitorModeACallTheHalfOpenBreakerRefusedIsNoProbe() {
    apply("monitor");
    tripAndWait();
    Object probe = permit(f.engine.http("GET", URL));
    Object refused = permit(f.engine.http("GET", URL));
    assertThat(f.view("a").wouldBlock(Reason.CIRCUIT_OPEN)).isEqualTo(1);
    f.ok(refused);
    assertThat(f.view("a").breakerState()).isEqualTo(2);
    f.fail(permit(f.engine.http("GET", URL)));
    assertThat(f.view("a").breakerState()).isEqualTo(2);
    f.ok(probe);
    assertThat(f.view("a").breakerState()).isEqualTo(0);
  }

  @Test
  void inMonitorModeACallRefusedWhileOpenIsNoProbeLater() {
    apply("monitor");
    f.clock.advanceMillis(1);
    f.fail(permit(f.engine.http("GET", URL)));
    f.fail(permit(f.engine.http("GET", URL)));
    Object refusedWhileOpen = permit(f.engine.http("GET", URL));
    f.clock.advanceMillis(5_000);
    Object probe = permit(f.engine.http("GET", URL));
    f.fail(refusedWhileOpen);
    assertThat(f.view("a").breakerState()).isEqualTo(2);
    f.ok(probe);
    assertThat(f.view("a").breakerState()).isEqualTo(0);
  }

  @Test
  void inMonitorModeAnIgnoredRefusedCallGivesBackNoProbe() {
    apply("monitor");
    tripAndWait();
    permit(f.engine.http("GET", URL));
    long start = f.clock.nanoTime();
    Object refused = permit(f.engine.http("GET", URL));
    f.engine.complete(refused, start, -1, new FileNotFoundException());
    permit(f.engine.http("GET", URL));
    assertThat(f.view("a").wouldBlock(Reason.CIRCUIT_OPEN)).isEqualTo(2);
  }

  @Test
  void inMonitorModeARefusedCallWithTheSystemPermitIsNoProbe() {
    f.apply(
        "system:\n  adaptive: { max-limit: 100, initial-limit: 100 }\n"
            + "resources:\n  - name: a\n    mode: monitor\n"
            + "    match: { servlet: { paths: [\"/a/**\"] } }\n"
            + "    circuit-breaker: { minimum-calls: 2, open-for: 5s, half-open-calls: 1 }\n");
    f.clock.advanceMillis(1);
    f.fail(permit(f.get("/a/x")));
    f.fail(permit(f.get("/a/x")));
    f.clock.advanceMillis(5_000);
    Object probe = permit(f.get("/a/x"));
    f.ok(permit(f.get("/a/x")));
    assertThat(f.view("a").breakerState()).isEqualTo(2);
    f.ok(probe);
    assertThat(f.view("a").breakerState()).isEqualTo(0);
    assertThat(f.view("system").inFlight()).isZero();
  }

  @Test
  void statusShowsADueProbeThenTheRampThenPlainClosed() {
    apply("enforce");
    tripAndWait();
    assertThat(status("a").breakerState).isEqualTo(1);
    assertThat(status("a").probeDue).isTrue();
    assertThat(status("a").breakerRamp).isZero();

    f.ok(permit(f.engine.http("GET", URL)));

    assertThat(status("a").breakerState).isEqualTo(0);
    assertThat(status("a").probeDue).isFalse();
    assertThat(status("a").breakerRamp).isEqualTo(10);
    f.clock.advanceMillis(3_000);
    assertThat(status("a").breakerRamp).isZero();
  }

  private ResourceStatus status(String name) {
    for (ResourceStatus s : f.engine.status()) {
      if (s.name.equals(name)) {
        return s;
      }
    }
    throw new AssertionError("no resource " + name);
  }
}
