package io.levee.load.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.load.gen.Bin;
import io.levee.load.gen.Series;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricsTest {
  private final Series s = new Series(10, List.of("cpu"));

  private void second(int i, int good, long p99Millis) {
    Bin b = s.bin("cpu", i);
    b.good.add(good);
    for (int k = 0; k < good; k++) {
      b.recordAdmitted(p99Millis * 1000);
    }
  }

  @Test
  void convergenceIsTheFirstSecondFromWhichGoodputStaysNearItsFinalLevelWithinTheDeadline() {
    int[] good = {10, 40, 90, 100, 60, 100, 98, 101, 100, 99};
    for (int i = 0; i < 10; i++) {
      second(i, good[i], 20);
    }
    assertThat(Metrics.converge(s, "cpu", 0, 10, 250)).isEqualTo(5);
  }

  @Test
  void theThreeSecondAverageSettlesWhereSingleSecondsStillJump() {
    int[] good = {10, 40, 90, 100, 100, 100, 100, 120, 85, 99};
    for (int i = 0; i < 10; i++) {
      second(i, good[i], 20);
    }
    // Per second, 120 and 85 are each more than 10 % off the final 101.3: not converged before 9.
    assertThat(Metrics.converge(s, "cpu", 0, 10, 250)).isEqualTo(9);
    // Averaged over 3 s, from the fifth second on (96.7, 100, 100, 106.7, 101.7, 101.3).
    assertThat(Metrics.convergeAverage(s, "cpu", 0, 10)).isEqualTo(4);
  }

  @Test
  void theLimitSettlesWhenItsRestStaysWithinAFifthOfItsMean() {
    double[] limits = {20, 14, 9, 6, 5, 5, 7, 5, 5, 5};
    for (int i = 0; i < 10; i++) {
      s.recordLimit(i, limits[i]);
    }
    assertThat(Metrics.limitSettles(s, 0, 10)).isEqualTo(7);
    assertThat(Metrics.limitSettles(new Series(10, List.of("cpu")), 0, 10)).isNaN();
  }

  @Test
  void aPhaseWhoseLatencyStaysOverTheDeadlineNeverConverges() {
    for (int i = 0; i < 10; i++) {
      second(i, 100, 400);
    }
    assertThat(Metrics.converge(s, "cpu", 0, 10, 250)).isNaN();
  }

  @Test
  void aPhaseWithNoGoodputNeverConverges() {
    assertThat(Metrics.converge(s, "cpu", 0, 10, 250)).isNaN();
  }

  @Test
  void recoveryCountsTheSecondsUntilGoodputStaysAtNinetyFivePercentOfTheOfferedRate() {
    int[] good = {0, 0, 30, 96, 50, 95, 99, 100, 100, 97};
    for (int i = 0; i < 10; i++) {
      second(i, good[i], 20);
    }
    assertThat(Metrics.recovery(s, 2, 10, 100)).isEqualTo(3);
  }

  @Test
  void statsShowTheMedianAndTheSpreadOfTheRuns() {
    assertThat(Stats.show(List.of(0.9, 0.5, 0.7))).isEqualTo("0.70 (0.50–0.90)");
    assertThat(Stats.show(List.of(Double.NaN))).isEqualTo("—");
  }
}
