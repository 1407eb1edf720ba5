package io.levee.rules.policy.adaptive.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.AdaptiveSpec;
import org.junit.jupiter.api.Test;

/**
 * The {@code system} limit with its defaults in front of the simulated 2-core container, judged by
 * the overload benchmark's targets. Every number is a simulated outcome; nothing here reads a clock.
 */
class SystemLimitSimulationTest {
  private static final long SEED = 7;

  private static Admission levee() {
    return Admission.levee(AdaptiveSpec.defaults());
  }

  @Test
  void keepsGoodputAndLowLatencyAtTwiceCapacity() {
    double[] step = Outcomes.step(levee(), SEED);
    double[] staticTen = Outcomes.step(Admission.fixed(10), SEED);
    assertThat(step[0]).as("goodput at 2C / C").isGreaterThanOrEqualTo(0.9);
    assertThat(step[2]).as("admitted p99 ms").isLessThanOrEqualTo(0.7 * staticTen[2]);
  }

  @Test
  void convergesWithinTwoSecondsOfAStepToTwiceCapacityAndBack() {
    double[] step = Outcomes.step(levee(), SEED);
    assertThat(step[5]).as("seconds to settle after 0.5C -> 2C").isLessThanOrEqualTo(2);
    assertThat(step[6]).as("seconds to settle after 2C -> 0.5C").isLessThanOrEqualTo(2);
    assertThat(step[7]).as("CoV of the limit at 2C").isLessThanOrEqualTo(0.15);
  }

  @Test
  void neverRejectsAtHalfCapacity() {
    double[] step = Outcomes.step(levee(), SEED);
    assertThat(step[3]).as("rejects during the first 0.5C").isZero();
  }

  @Test
  void rejectsAlmostNothingOnceTheLoadFallsBackToHalfCapacity() {
    // The limit sits at about 4 when the load falls; it grows within a few windows, and the
    // Poisson bursts of those first windows may still meet it (a handful in ~5,000 requests).
    double[] step = Outcomes.step(levee(), SEED);
    assertThat(step[4]).as("rejects after 2C -> 0.5C").isLessThanOrEqualTo(0.005 * 0.5 * Scenario.Server.TWO_CORES.c() * 10);
  }

  @Test
  void holdsWhenDownstreamSlowsButCpuIsIdle() {
    for (long seed = 1; seed <= 3; seed++) {
      double[] slow = Outcomes.slow(levee(), 200, seed);
      assertThat(slow[0]).as("/cpu goodput kept, seed %s", seed).isGreaterThanOrEqualTo(0.95);
      assertThat(slow[2]).as("/io answered, seed %s", seed).isGreaterThanOrEqualTo(0.95);
    }
  }

  @Test
  void recoversFromARetryStormWithinTenSeconds() {
    double[] storm = Outcomes.retry(levee(), SEED);
    assertThat(storm[3]).as("seconds to 95 %% goodput after 3C -> 0.7C").isLessThanOrEqualTo(10);
    assertThat(storm[4]).as("goodput at the end / before").isGreaterThanOrEqualTo(0.95);
  }

  @Test
  void aFixedLimitTunedForCpuStarvesTheFastPageWhenTheDownstreamSlows() {
    // The simulation itself must be able to show the failure the adaptive limit avoids.
    double[] slow = Outcomes.slow(Admission.fixed(10), 200, SEED);
    assertThat(slow[0]).isLessThan(0.5);
  }
}
