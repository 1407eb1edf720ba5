package io.levee.rules.policy.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class WindowSampleTest {
  @Test
  void summarisesLatenciesAndKeepsDropsApart() {
    WindowSample w = new WindowSample();
    for (long ms = 1; ms <= 100; ms++) {
      w.record(ms * 1_000_000L);
    }
    w.drop().drop();
    assertThat(w.samples()).isEqualTo(100);
    assertThat(w.drops()).isEqualTo(2);
    assertThat(w.dropRate()).isCloseTo(2 / 102.0, within(1e-9));
    assertThat(w.averageRttNanos()).isEqualTo(50_500_000L);
    assertThat(w.minRttNanos()).isEqualTo(1_000_000L);
    assertThat((double) w.percentileRttNanos(0.5)).isCloseTo(50e6, within(50e6 * 0.07));
    assertThat((double) w.percentileRttNanos(0.9)).isCloseTo(90e6, within(90e6 * 0.07));
  }

  @Test
  void threadsHoldTheCallsBackWhenTheSameOnesAskAgainAsTheCallsInFlight() {
    // 20 threads, all in flight and busy, each asking again as it finishes: held back by them.
    assertThat(held(20, 20, 20, 20, true).threadBound()).isTrue();
    assertThat(held(19, 12, 20, 16, true).threadBound()).isTrue();
    assertThat(held(20, 20, 20, 20, true).busy()).isCloseTo(20, within(1e-9));
    // A pool that hands each call to the thread idle longest: more threads than calls in flight,
    // or, while calls drain, fewer that ask and none twice; or a small pool that goes round, its
    // threads busy only part of the time.
    assertThat(held(45, 0, 20, 20, true).threadBound()).isFalse();
    assertThat(held(12, 0, 20, 20, true).threadBound()).isFalse();
    assertThat(held(20, 5, 20, 20, true).threadBound()).isFalse();
    assertThat(held(20, 20, 20, 10, true).threadBound()).isFalse();
    assertThat(held(17, 17, 20, 20, true).threadBound()).isFalse(); // fewer than nine tenths
    // Not counted, or counted on from the window before (a demand probe's): nothing to say.
    assertThat(held(0, 0, 20, 20, true).threadBound()).isFalse();
    assertThat(held(20, 20, 20, 20, false).threadBound()).isFalse();
  }

  @Test
  void threadsAsBusyAsTheCallsDoNotHoldThemBackWhenMoreAskedLately() {
    // 64 clients, all let in, on a pool that handed their calls to the threads that had just
    // finished: 64 threads asked, all busy. Windows before, while some of the clients were
    // turned away, had 67 threads ask: the pool can take more calls than these.
    assertThat(held(64, 64, 64, 64, true).setThreadsLately(64).threadBound()).isTrue();
    assertThat(held(64, 64, 64, 64, true).setThreadsLately(67).threadBound()).isFalse();
  }

  /** A window of 100 ms in which {@code busy} calls of 10 ms ran throughout. */
  private static WindowSample held(
      int threads, int again, int maxInFlight, int busy, boolean afresh) {
    WindowSample w = new WindowSample();
    for (int i = 0; i < busy * 10; i++) {
      w.record(10_000_000L);
    }
    return w.setMaxInFlight(maxInFlight)
        .setWindowNanos(100_000_000L)
        .setThreads(threads, again, afresh);
  }

  @Test
  void bucketsAreOrderedAndNarrowAcrossTheWholeRange() {
    int previous = -1;
    for (long nanos = 1; nanos < (1L << 41); nanos = nanos * 21 / 20 + 1) {
      int bucket = WindowSample.bucket(nanos);
      assertThat(bucket).isBetween(previous, WindowSample.BUCKETS - 1);
      previous = bucket;
      if (nanos >= 2048 && nanos < (1L << 40)) {
        double value = WindowSample.bucketValue(bucket);
        assertThat(value / nanos).isBetween(0.93, 1.07);
      }
    }
    assertThat(WindowSample.bucket(Long.MAX_VALUE)).isEqualTo(WindowSample.BUCKETS - 1);
    assertThat(WindowSample.bucket(-5)).isZero();
  }

  @Test
  void resetEmptiesEverything() {
    WindowSample w =
        new WindowSample().record(5_000_000L).drop().setMaxInFlight(7).setCpu(0.5, 0.8);
    w.reset();
    assertThat(w.samples()).isZero();
    assertThat(w.drops()).isZero();
    assertThat(w.percentileRttNanos(0.5)).isZero();
    assertThat(w.minRttNanos()).isZero();
    assertThat(w.maxInFlight()).isZero();
  }
}
