package io.levee.rules.policy.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.AdaptiveSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class GradientCpuLimitTest {
  private static final long MS = 1_000_000L;
  private static final long WINDOW = 200 * MS;
  private static final double TARGET = 0.8;

  private final AdaptiveSpec spec = new AdaptiveSpec(2, 200, 20, TARGET);
  private GradientCpuLimit algorithm;

  @BeforeEach
  void learnBaselineOfTenMillis() {
    algorithm = new GradientCpuLimit(spec);
    algorithm.nextLimit(window(10 * MS, 20, 0, 0.2), 40);
    assertThat(algorithm.baselineNanos()).isBetween(9 * MS, 11 * MS);
  }

  @Test
  void growsBySquareRootWhenLatencyFlatAndLimitUsed() {
    int next = algorithm.nextLimit(window(10 * MS, 40, 0, 0.2), 40);
    assertThat(next).isEqualTo(40 + (int) Math.round(Math.sqrt(40)));
  }

  @Test
  void holdsWhenAppLimited() {
    int next = algorithm.nextLimit(window(10 * MS, 19, 0, 0.2), 40);
    assertThat(next).isEqualTo(40);
  }

  @Test
  void cutsInProportionToLatencyRise() {
    int next = algorithm.nextLimit(window(20 * MS, 40, 0, 0.2), 40);
    assertThat(next).isEqualTo(30); // 1.5 / 2.0 of 40
  }

  @Test
  void holdsNearTheKneeInsteadOfCreepingUp() {
    int next = algorithm.nextLimit(window(13 * MS, 40, 0, 0.2), 40);
    assertThat(next).isEqualTo(40);
  }

  @Test
  void cutsAtMostHalfPerWindow() {
    int next = algorithm.nextLimit(window(500 * MS, 40, 0, 0.2), 40);
    assertThat(next).isEqualTo(20);
  }

  @Test
  void cutsFromTheConcurrencyActuallyInUse() {
    int next = algorithm.nextLimit(window(20 * MS, 15, 0, 0.2), 40);
    assertThat(next).isEqualTo(20); // 0.75 * 15 is below the bound of half the limit
    next = algorithm.nextLimit(window(20 * MS, 15, 0, 0.2), 20);
    assertThat(next).isEqualTo(11);
  }

  @Test
  void cutsWhenCpuAboveTargetWhileLatencyIsFlat() {
    int next = algorithm.nextLimit(window(10 * MS, 40, 0, 1.0), 40);
    assertThat(next).isEqualTo(32); // 0.8 / 1.0 of 40
  }

  @Test
  void holdsCpuCutWhileCpuIsAlreadyFalling() {
    algorithm.nextLimit(window(10 * MS, 40, 0, 1.0), 40);
    int next = algorithm.nextLimit(window(10 * MS, 32, 0, 0.95), 32);
    assertThat(next).isEqualTo(32);
  }

  @Test
  void growthFadesOutAsCpuApproachesTarget() {
    int farBelow = fresh().nextLimit(window(10 * MS, 100, 0, 0.5), 100);
    int halfway = fresh().nextLimit(window(10 * MS, 100, 0, 0.75), 100);
    int atTarget = fresh().nextLimit(window(10 * MS, 100, 0, 0.8), 100);
    assertThat(farBelow).isEqualTo(110);
    assertThat(halfway).isEqualTo(105);
    assertThat(atTarget).isEqualTo(100);
  }

  @Test
  void countsDropsAboveToleranceAsCongestion() {
    WindowSample w = window(10 * MS, 40, 0, 0.2);
    for (int i = 0; i < 20; i++) {
      w.drop(); // 20 of 40 completions failed
    }
    assertThat(algorithm.nextLimit(w, 40)).isEqualTo(20);
  }

  @Test
  void toleratesAUsualErrorRate() {
    WindowSample w = window(10 * MS, 40, 0, 0.2);
    w.drop();
    assertThat(algorithm.nextLimit(w, 40)).isGreaterThan(40);
  }

  @Test
  void cutsHalfWhenEveryCallFailed() {
    WindowSample w = new WindowSample().setMaxInFlight(40).setCpu(0.2, TARGET).setWindowNanos(WINDOW);
    for (int i = 0; i < 10; i++) {
      w.drop();
    }
    assertThat(algorithm.nextLimit(w, 40)).isEqualTo(20);
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
      algorithm.nextLimit(window(30 * MS, 40, 0, 0.2), 40);
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
  void relearnsASlowerDependencySlowlyOnceAtTheFloor() {
    int limit = 40;
    int windows = 0;
    while (limit > spec.minLimit) {
      limit = algorithm.nextLimit(window(100 * MS, limit, 0, 0.2), limit);
      windows++;
    }
    assertThat(windows).isLessThanOrEqualTo(5);
    int atFloor = 0;
    while (limit == spec.minLimit && atFloor < 1000) {
      limit = algorithm.nextLimit(window(100 * MS, limit, 0, 0.2), limit);
      atFloor++;
    }
    // Seconds of windows, not one: a slower dependency is accepted, but not at once.
    assertThat(atFloor).isBetween(50, 500);
    assertThat(algorithm.baselineNanos()).isGreaterThan(80 * MS);
  }

  @Test
  void neverCutsAHealthyServiceAndGrowsToItsDemand() {
    int demand = 90;
    int limit = spec.initialLimit;
    for (int i = 0; i < 100; i++) {
      int inFlight = Math.min(limit, demand);
      int next = algorithm.nextLimit(window(10 * MS, inFlight, 0, 0.3), limit);
      assertThat(next).isGreaterThanOrEqualTo(limit);
      limit = next;
    }
    assertThat(limit).isGreaterThanOrEqualTo(demand);
  }

  @Test
  void convergesNearCapacityOfAQueueingServerFromAnOverloadedStart() {
    QueueingServer server = new QueueingServer(10, 10 * MS);
    GradientCpuLimit cold = new GradientCpuLimit(spec);
    int limit = 60;
    for (int i = 0; i < 60; i++) {
      limit = cold.nextLimit(server.window(limit), limit);
    }
    assertThat(limit).isBetween(10, 16);
    assertThat(cold.baselineNanos()).isLessThan(12 * MS);
  }

  @Test
  void probeThatFindsNoQueueCostsOneWindow() {
    int limit = 40;
    int dips = 0;
    for (int i = 0; i < 200; i++) {
      int next = algorithm.nextLimit(window(13 * MS, limit, 0, 0.2), limit);
      if (next < limit) {
        dips++;
        assertThat(next).isEqualTo(30);
        next = algorithm.nextLimit(window(13 * MS, next, 0, 0.2), next);
        i++;
      }
      assertThat(next).isEqualTo(40);
      limit = next;
    }
    assertThat(dips).isBetween(8, 10); // about one every PROBE_AFTER held windows
  }

  @Test
  void shedsWithinAFewWindowsWhenCapacityHalves() {
    QueueingServer server = new QueueingServer(20, 10 * MS);
    GradientCpuLimit steady = fresh();
    int limit = 20;
    for (int i = 0; i < 60; i++) {
      limit = steady.nextLimit(server.window(limit), limit);
    }
    assertThat(limit).isBetween(20, 32);
    server = new QueueingServer(10, 10 * MS);
    int windows = 0;
    while (limit > 15 && windows < 100) {
      limit = steady.nextLimit(server.window(limit), limit);
      windows++;
    }
    assertThat(windows).isLessThanOrEqualTo(5);
    for (int i = 0; i < 60; i++) {
      limit = steady.nextLimit(server.window(limit), limit);
    }
    assertThat(limit).isBetween(10, 16);
  }

  private GradientCpuLimit fresh() {
    GradientCpuLimit g = new GradientCpuLimit(spec);
    g.nextLimit(window(10 * MS, 1, 0, 0.2), 100);
    return g;
  }

  private static WindowSample window(long p50, int maxInFlight, int drops, double cpu) {
    WindowSample w = new WindowSample();
    for (int i = 0; i < 20; i++) {
      w.record(p50);
    }
    for (int i = 0; i < drops; i++) {
      w.drop();
    }
    return w.setMaxInFlight(maxInFlight).setCpu(cpu, TARGET).setWindowNanos(WINDOW);
  }

  /**
   * A server with {@code workers} parallel workers under more demand than the limit: the limit is
   * always full, and calls beyond the workers share them, so latency grows with the limit past them.
   */
  private static final class QueueingServer {
    final int workers;
    final long serviceNanos;

    QueueingServer(int workers, long serviceNanos) {
      this.workers = workers;
      this.serviceNanos = serviceNanos;
    }

    WindowSample window(int limit) {
      long rtt = serviceNanos * Math.max(workers, limit) / workers;
      double cpu = 0.6 * Math.min(1.0, (double) limit / workers);
      WindowSample w = new WindowSample();
      for (int i = 0; i < 50; i++) {
        w.record(rtt + (i % 5) * serviceNanos / 50);
      }
      return w.setMaxInFlight(limit).setCpu(cpu, TARGET).setWindowNanos(WINDOW);
    }
  }
}
