package io.levee.rules.policy.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.AdaptiveSpec;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class GradientCpuLimitTest {
  static final long MS = 1_000_000L;
  static final long WINDOW = 200 * MS;
  static final double TARGET = 0.8;

  private final AdaptiveSpec spec = new AdaptiveSpec(2, 200, 20, TARGET);
  private GradientCpuLimit algorithm;

  @BeforeEach
  void learnBaselineOfTenMillis() {
    algorithm = learnedTenMillis(spec);
  }

  /** An algorithm that learned a no-load median of 10 ms from one window using half of 40. */
  static GradientCpuLimit learnedTenMillis(AdaptiveSpec spec) {
    GradientCpuLimit g = new GradientCpuLimit(spec);
    g.nextLimit(window(10 * MS, 20, 0, 0.2), 40);
    assertThat(g.baselineNanos()).isBetween(9 * MS, 11 * MS);
    return g;
  }

  @Test
  void growsByHalfWhenLatencyFlatLimitUsedAndCpuBelowTarget() {
    int next = algorithm.nextLimit(window(10 * MS, 40, 0, 0.2), 40);
    assertThat(next).isEqualTo(60);
  }

  @Test
  void growsOneCallPerWindowAboveCpuTarget() {
    int next = algorithm.nextLimit(window(10 * MS, 40, 0, 0.95), 40);
    assertThat(next).isEqualTo(41);
  }

  @Test
  void keepsRoomForTwiceWhatIsUsedWhenAppLimited() {
    int next = algorithm.nextLimit(window(10 * MS, 19, 0, 0.2), 40);
    assertThat(next).isEqualTo(41); // a tenth of the way toward 2 * 19 + 2 sqrt(19) = 46.7
  }

  @Test
  void growsOnlyWhenTheLimitWasUsedInTwoWindowsInARow() {
    // The load doubled at the end of a quiet window: the limit filled, but the calls that
    // completed came from before, fast. The next window shows their latency and cuts instead.
    GradientCpuLimit g = fresh();
    int limit = g.nextLimit(window(10 * MS, 3, 0, 0.4), 40);
    assertThat(g.nextLimit(window(10 * MS, 40, 0, 0.5), limit)).isEqualTo(limit);
    assertThat(g.nextLimit(window(30 * MS, limit, 0, 0.6), limit)).isLessThan(limit);
    // Demand that stays is followed one window later.
    limit = algorithm.nextLimit(window(10 * MS, 3, 0, 0.4), 40);
    assertThat(algorithm.nextLimit(window(10 * MS, limit, 0, 0.4), limit)).isEqualTo(limit);
    assertThat(algorithm.nextLimit(window(10 * MS, limit, 0, 0.4), limit)).isGreaterThan(limit);
  }

  @Test
  void comesDownTowardTwiceThePeakWhileTheApplicationNeedsLittle() {
    GradientCpuLimit g = fresh();
    int limit = 40;
    for (int i = 0; i < 10; i++) { // 2 s: one time constant
      limit = g.nextLimit(window(10 * MS, 3, 0, 0.2), limit);
    }
    assertThat(limit).isBetween(18, 22); // 9.5 + 30.5 * 0.9^10
    for (int i = 0; i < 50; i++) {
      limit = g.nextLimit(window(10 * MS, 3, 0, 0.2), limit);
    }
    assertThat(limit).isBetween(9, 10); // 2 * 3 + 2 sqrt(3), never below
  }

  @Test
  void restsNoLowerThanAThirdOfTheInitialLimitSoAQuietServiceTakesABrowsersRequests() {
    GradientCpuLimit g = fresh();
    int limit = 40;
    for (int i = 0; i < 100; i++) {
      limit = g.nextLimit(window(10 * MS, 1, 0, 0.05), limit);
    }
    assertThat(limit).isEqualTo(7); // 20 / 3 rounded up; 2 * 1 + 2 sqrt(1) would be 4
  }

  @Test
  void keepsItsLimitWhileLittleIsUsedButTheCpuIsBusyOrCallsAreSlow() {
    int limit = 40;
    for (int i = 0; i < 20; i++) {
      limit = algorithm.nextLimit(window(10 * MS, 3, 0, 0.95), limit);
    }
    assertThat(limit).isEqualTo(40);
    for (int i = 0; i < 20; i++) {
      limit = algorithm.nextLimit(window(16 * MS, 3, 0, 0.2), limit);
    }
    assertThat(limit).isEqualTo(40);
  }

  @Test
  void cutsInProportionToLatencyRiseWithHeadroomAtOnceWhenCpuAboveTarget() {
    int next = algorithm.nextLimit(window(30 * MS, 40, 0, 0.9), 40);
    assertThat(next).isBetween(36, 37); // T = 2.0 / 3.0 of 40, plus 2 sqrt(T)
  }

  @Test
  void cutsOnALatencyRiseWithIdleCpuOnlyWhenItLastsTwoWindows() {
    assertThat(algorithm.nextLimit(window(30 * MS, 20, 0, 0.2), 40)).isEqualTo(40);
    // T = 20 * 2/3, plus 2 sqrt(T)
    assertThat(algorithm.nextLimit(window(30 * MS, 20, 0, 0.2), 40)).isEqualTo(21);
  }

  @Test
  void cutsAtOnceWhenTheLimitIsFullEvenWithIdleCpu() {
    // T = 2/3 of 40, plus 2 sqrt(T): the headroom of busy, as with the CPU above target
    assertThat(algorithm.nextLimit(window(30 * MS, 40, 0, 0.2), 40)).isEqualTo(37);
    GradientCpuLimit threeQuarters = fresh(); // not full: two windows, as for a slower dependency
    assertThat(threeQuarters.nextLimit(window(60 * MS, 30, 0, 0.2), 40)).isEqualTo(40);
    // T = 1/3 of 30, plus 2 sqrt(T)
    assertThat(threeQuarters.nextLimit(window(60 * MS, 30, 0, 0.2), 40)).isEqualTo(17);
  }

  @Test
  void keepsCuttingWhenLatencyFallsWithTheCut() {
    int cut = algorithm.nextLimit(window(30 * MS, 40, 0, 0.2), 40);
    int next = algorithm.nextLimit(window(20 * MS, cut, 0, 0.2), cut);
    assertThat(next).isLessThanOrEqualTo(cut);
    assertThat(algorithm.baselineNanos()).isLessThan(11 * MS);
  }

  @Test
  void holdsNearTheKneeInsteadOfCreepingUp() {
    int next = algorithm.nextLimit(window(13 * MS, 40, 0, 0.2), 40);
    assertThat(next).isEqualTo(40);
  }

  @Test
  void cutsAtMostToAQuarterPerWindow() {
    // A quarter of 40 is T, plus 2 sqrt(T) of headroom.
    assertThat(algorithm.nextLimit(window(500 * MS, 40, 0, 0.2), 40)).isEqualTo(17);
    GradientCpuLimit few = fresh(); // the calls in use would say 1 + 2 sqrt(1)
    assertThat(few.nextLimit(window(500 * MS, 4, 0, 0.2), 40)).isEqualTo(40); // one window: wait
    assertThat(few.nextLimit(window(500 * MS, 4, 0, 0.2), 40)).isEqualTo(10);
    GradientCpuLimit hot = fresh();
    assertThat(hot.nextLimit(window(500 * MS, 4, 0, 0.9), 40)).isEqualTo(10);
  }

  @Test
  void cutsFromTheConcurrencyActuallyInUse() {
    int next = algorithm.nextLimit(window(40 * MS, 15, 0, 0.9), 40);
    assertThat(next).isEqualTo(13); // T = 0.5 * 15, plus 2 sqrt(T)
    next = algorithm.nextLimit(window(40 * MS, 15, 0, 0.9), 20);
    assertThat(next).isEqualTo(13);
  }

  @Test
  void neverCutsNearTheKneeWhenCpuAboveTarget() {
    int next = algorithm.nextLimit(window(15 * MS, 40, 0, 1.0), 40);
    // The CPU target is no operating point: that would cost capacity.
    assertThat(next).isEqualTo(41);
  }

  @Test
  void settlesAtTheGradientsShareWithHeadroomWhenTheCpuQueues() {
    QueueingServer cpu = new QueueingServer(4, 10 * MS, 0, 1.0);
    GradientCpuLimit hot = fresh();
    int limit = 40;
    int[] last = new int[50];
    for (int i = 0; i < 100; i++) {
      limit = hot.nextLimit(cpu.window(limit), limit);
      if (i >= 50) {
        last[i - 50] = limit;
      }
    }
    Arrays.sort(last);
    int median = last[last.length / 2];
    int lowest = last[0];
    int highest = last[last.length - 1];
    assertThat(median).isBetween(13, 14); // T = 2 x 4 calls, plus 2 sqrt(T)
    assertThat(lowest).isGreaterThanOrEqualTo(10); // a probe dips to three quarters for a window
    assertThat(highest).isLessThanOrEqualTo(15);
  }

  @Test
  void doesNotSpiralToTheFloorWhenWorkOutsideTheLimitSlowsTheCalls() {
    // The CPU also serves six calls' worth of work the limit does not count (rejects, GC): the
    // gradient alone would settle where 2 x 4 x L / (L + 6) = L, at 2.
    QueueingServer cpu = new QueueingServer(4, 10 * MS, 6, 1.0);
    GradientCpuLimit hot = fresh();
    int limit = 40;
    for (int i = 0; i < 100; i++) {
      limit = hot.nextLimit(cpu.window(limit), limit);
    }
    assertThat(limit).isGreaterThanOrEqualTo(8);
  }

  @Test
  void countsDropsAboveToleranceAsCongestion() {
    WindowSample w = window(10 * MS, 40, 0, 0.2);
    for (int i = 0; i < 20; i++) {
      w.drop(); // 20 of 40 completions failed
    }
    assertThat(algorithm.nextLimit(w, 40)).isEqualTo(29); // T = 20, plus 2 sqrt(T)
  }

  @Test
  void toleratesAUsualErrorRate() {
    WindowSample w = window(10 * MS, 40, 0, 0.2);
    w.drop();
    assertThat(algorithm.nextLimit(w, 40)).isGreaterThan(40);
  }

  @Test
  void cutsToAQuarterWhenEveryCallFailed() {
    WindowSample w =
        new WindowSample().setMaxInFlight(40).setCpu(0.2, TARGET).setWindowNanos(WINDOW);
    for (int i = 0; i < 10; i++) {
      w.drop();
    }
    assertThat(algorithm.nextLimit(w, 40)).isEqualTo(17); // 10 + 2 sqrt(10), rounded up
  }

  @Test
  void cutsWhenEveryCallFailedWithTheCpuAboveTargetToo() {
    WindowSample w =
        new WindowSample().setMaxInFlight(40).setCpu(0.9, TARGET).setWindowNanos(WINDOW);
    for (int i = 0; i < 10; i++) {
      w.drop();
    }
    assertThat(algorithm.nextLimit(w, 40)).isEqualTo(17); // 10 + 2 sqrt(10), rounded up
  }

  @Test
  void holdsWhenNothingCompleted() {
    WindowSample empty = new WindowSample().setMaxInFlight(40).setCpu(1.0, TARGET);
    assertThat(algorithm.nextLimit(empty, 40)).isEqualTo(40);
  }

  @Test
  void staysWithinMinAndMax() {
    int limit = 40;
    for (int i = 0; i < 20; i++) {
      limit = algorithm.nextLimit(window(1000 * MS, limit, 0, 1.0), limit);
    }
    assertThat(limit).isEqualTo(spec.minLimit);
    GradientCpuLimit growing = fresh();
    limit = 150;
    for (int i = 0; i < 20; i++) {
      limit = growing.nextLimit(window(10 * MS, limit, 0, 0.1), limit);
    }
    assertThat(limit).isEqualTo(spec.maxLimit);
  }

  @Test
  void keepsBaselineFrozenDuringOverload() {
    for (int i = 0; i < 200; i++) {
      algorithm.nextLimit(window(30 * MS, 40, 0, 0.9), 40);
    }
    assertThat(algorithm.baselineNanos()).isLessThan(11 * MS);
  }

  @Test
  void followsAFasterServiceQuickly() {
    algorithm.nextLimit(window(4 * MS, 40, 0, 0.2), 40);
    algorithm.nextLimit(window(4 * MS, 40, 0, 0.2), 40);
    assertThat(algorithm.baselineNanos()).isLessThan(6 * MS);
  }

  @Test
  void neverCutsAHealthyServiceAndGrowsToItsDemand() {
    int demand = 90;
    int limit = spec.initialLimit;
    for (int i = 0; i < 100; i++) {
      int inFlight = Math.min(limit, demand);
      int next = algorithm.nextLimit(window(10 * MS, inFlight, 0, 0.3), limit);
      // Grows while used; once the demand is met it may come down, never below twice the demand.
      assertThat(next).isGreaterThanOrEqualTo(Math.min(limit, 2 * demand));
      limit = next;
    }
    assertThat(limit).isGreaterThanOrEqualTo(demand);
  }

  @Test
  void convergesNearCapacityOfAQueueingServerFromAnOverloadedStart() {
    QueueingServer server = new QueueingServer(10, 10 * MS);
    GradientCpuLimit cold = new GradientCpuLimit(spec);
    int limit = 60;
    for (int i = 0; i < 150; i++) {
      limit = cold.nextLimit(server.window(limit), limit);
    }
    // TOLERANCE times the workers, plus 2 sqrt of that, to the histogram's resolution
    assertThat(limit).isBetween(10, 29);
    assertThat(cold.baselineNanos()).isLessThan(12 * MS);
  }

  @Test
  void probesThatFindNothingNewCostOneWindowEach() {
    // Held at the knee and full, with the CPU below target: a probe down now and then checks the
    // baseline (the median does not fall), and a probe up checks whether the calls turned away
    // stop below a higher limit (they fill it: an open stream). Each goes back after one window.
    int limit = 40;
    int dips = 0;
    int raises = 0;
    for (int i = 0; i < 200; i++) {
      int next = algorithm.nextLimit(window(13 * MS, limit, 0, 0.2).setRefused(20), limit);
      if (next != limit) {
        if (next < limit) {
          dips++;
          assertThat(next).isEqualTo(30);
        } else {
          raises++;
          assertThat(next).isIn(80, 160, 200);
        }
        next = algorithm.nextLimit(window(13 * MS, next, 0, 0.2), next);
        i++;
      }
      assertThat(next).isEqualTo(40);
      limit = next;
    }
    assertThat(dips).isBetween(3, 4); // about one every PROBE_AFTER held windows
    assertThat(raises).isEqualTo(3); // after 1 s, 4 s and 16 s of full windows: 40 s in all
  }

  @Test
  void shedsWithinAFewWindowsWhenCapacityHalves() {
    QueueingServer server = new QueueingServer(20, 10 * MS);
    GradientCpuLimit steady = fresh();
    int limit = 20;
    for (int i = 0; i < 60; i++) {
      limit = steady.nextLimit(server.window(limit), limit);
    }
    assertThat(limit).isBetween(20, 49);
    server = new QueueingServer(10, 10 * MS);
    int windows = 0;
    while (limit > 29 && windows < 100) { // 2 x 10 workers, plus 2 sqrt(20)
      limit = steady.nextLimit(server.window(limit), limit);
      windows++;
    }
    assertThat(windows).isLessThanOrEqualTo(3);
    for (int i = 0; i < 60; i++) {
      limit = steady.nextLimit(server.window(limit), limit);
    }
    assertThat(limit).isBetween(10, 29);
  }

  private GradientCpuLimit fresh() {
    GradientCpuLimit g = new GradientCpuLimit(spec);
    g.nextLimit(window(10 * MS, 1, 0, 0.2), 100);
    return g;
  }

  static WindowSample window(long p50, int maxInFlight, int drops, double cpu) {
    WindowSample w = new WindowSample();
    for (int i = 0; i < 20; i++) {
      w.record(p50);
    }
    for (int i = 0; i < drops; i++) {
      w.drop();
    }
    return w.setMaxInFlight(maxInFlight).setCpu(cpu, TARGET).setWindowNanos(WINDOW);
  }

  /** A window of {@code fast} calls of {@code fastNanos} and {@code slow} of {@code slowNanos}. */
  static WindowSample mix(
      long fastNanos, int fast, long slowNanos, int slow, int maxInFlight, double cpu) {
    WindowSample w = new WindowSample();
    for (int i = 0; i < fast; i++) {
      w.record(fastNanos);
    }
    for (int i = 0; i < slow; i++) {
      w.record(slowNanos);
    }
    return w.setMaxInFlight(maxInFlight).setCpu(cpu, TARGET).setWindowNanos(WINDOW);
  }
}
