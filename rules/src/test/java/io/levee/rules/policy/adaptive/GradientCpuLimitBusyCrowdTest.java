package io.levee.rules.policy.adaptive;

import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.MS;
import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.TARGET;
import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.WINDOW;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.AdaptiveSpec;
import org.junit.jupiter.api.Test;

/**
 * {@link GradientCpuLimit} in front of a closed loop of clients that takes the CPU above target
 * once all of it is let in: held below the clients the CPU stays under target, and the probe that
 * lets them in reads it above.
 */
class GradientCpuLimitBusyCrowdTest {
  private static final int CLIENTS = 64;

  private final GradientCpuLimit algorithm =
      GradientCpuLimitTest.learnedTenMillis(new AdaptiveSpec(2, 200, 20, TARGET));

  @Test
  void aCrowdThatTakesTheCpuAboveTargetWhenLetInIsStillFound() {
    // At 30 calls in flight the CPU reads 45 %, with all 64 in 96 %. Ended as a stream by the CPU
    // of its first window, each probe left the clients turned away, coming back at once, and the
    // next came four times later.
    int limit = 30;
    for (int i = 0; i < 150 && !algorithm.lastStep().contains("crowd"); i++) { // 30 s
      limit = algorithm.nextLimit(window(limit), limit);
    }
    assertThat(algorithm.lastStep()).contains("the calls stopped at 64, a bounded crowd");
    for (int i = 0; i < 100; i++) { // 20 s: served in turn, whatever the CPU
      limit = algorithm.nextLimit(window(limit), limit);
      assertThat(limit).as("window %s", i).isGreaterThanOrEqualTo(CLIENTS);
    }
  }

  /** The clients on 10 workers of 10 ms; one turned away sends again 2 ms later. */
  private static WindowSample window(int limit) {
    int inFlight = Math.min(limit, CLIENTS);
    int refused = (int) ((CLIENTS - inFlight) * WINDOW / (2 * MS));
    return CrowdLoads.window(inFlight, 10, 10 * MS, 0.015 * inFlight, refused);
  }
}
