package io.levee.rules.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RollingWindowTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long T0 = 1_000 * SECOND;

  private final RollingWindow window = new RollingWindow(10 * SECOND);

  @Test
  void aSuccessThatBringsTheMinimumTripsOnFailuresAlreadyCounted() {
    for (int i = 0; i < 3; i++) {
      window.record(T0, true, false);
    }
    assertThat(window.reached(T0, 4, 0.5, 2.0)).isFalse();
    window.record(T0 + SECOND, false, false);
    assertThat(window.reached(T0 + SECOND, 4, 0.5, 2.0)).isTrue();
  }

  @Test
  void slowCallsAloneReachTheSlowRate() {
    window.record(T0, false, true);
    window.record(T0, false, false);
    assertThat(window.reached(T0, 2, 0.5, 0.5)).isTrue();
    assertThat(window.reached(T0, 2, 0.5, 0.6)).isFalse();
  }

  @Test
  void failuresOutOfTheWindowReachNothing() {
    window.record(T0, true, false);
    window.record(T0, true, false);
    long later = T0 + 10 * SECOND;
    window.record(later, false, false);
    window.record(later, false, false);
    assertThat(window.failures(later)).isZero();
    assertThat(window.reached(later, 1, 0.01, 2.0)).isFalse();
    window.record(later, true, false);
    assertThat(window.reached(later, 1, 0.3, 2.0)).isTrue();
  }

  @Test
  void failuresOfTheLastNineBucketsStillCount() {
    window.record(T0, true, false);
    long later = T0 + 9 * SECOND;
    window.record(later, false, false);
    assertThat(window.calls(later)).isEqualTo(2);
    assertThat(window.reached(later, 2, 0.5, 2.0)).isTrue();
  }

  @Test
  void aLateCallLandsInTheBucketOfItsOwnTime() {
    window.record(T0 + 3 * SECOND, false, false);
    window.record(T0 + SECOND, true, false);
    window.record(T0 + 3 * SECOND + 1, false, false);
    assertThat(window.calls(T0 + SECOND)).isEqualTo(1);
    assertThat(window.calls(T0 + 3 * SECOND)).isEqualTo(3);
    assertThat(window.failures(T0 + 3 * SECOND)).isEqualTo(1);
  }

  @Test
  void countsAcrossNegativeClockValues() {
    window.record(-SECOND / 2, true, false);
    window.record(SECOND / 2, false, false);
    window.record(-SECOND / 2 + 1, false, false);
    assertThat(window.calls(SECOND / 2)).isEqualTo(3);
    assertThat(window.failures(SECOND / 2)).isEqualTo(1);
    assertThat(window.calls(9 * SECOND)).isEqualTo(1);
  }
}
