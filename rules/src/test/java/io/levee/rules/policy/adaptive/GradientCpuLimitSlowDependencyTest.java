package io.levee.rules.policy.adaptive;

import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.MS;
import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.TARGET;
import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.WINDOW;
import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.mix;
import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.window;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.AdaptiveSpec;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link GradientCpuLimit} telling a slower dependency from calls queueing behind the limit. */
class GradientCpuLimitSlowDependencyTest {
  private final AdaptiveSpec spec = new AdaptiveSpec(2, 200, 20, TARGET);
  private GradientCpuLimit algorithm;

  @BeforeEach
  void learnBaselineOfTenMillis() {
    algorithm = GradientCpuLimitTest.learnedTenMillis(spec);
  }

  @Test
  void acceptsASlowerDependencyWhenLatencyDoesNotFallWithTheCut() {
    int limit = 40;
    limit = algorithm.nextLimit(window(100 * MS, 20, 0, 0.2), limit);
    assertThat(limit).isEqualTo(40); // one window of a rise with idle CPU: not yet
    assertThat(algorithm.lastStep())
        .isEqualTo(
            "keep: latency risen with cpu below target, cut if the next window shows it too");
    limit = algorithm.nextLimit(window(100 * MS, 20, 0, 0.2), limit);
    assertThat(limit).isEqualTo(10);
    assertThat(algorithm.lastStep())
        .isEqualTo(
            "cut toward 5.0: cpu below target, latency risen; checked once the calls before it complete");
    limit = algorithm.nextLimit(window(100 * MS, 10, 0, 0.15), limit);
    assertThat(limit).isEqualTo(10); // the 20 calls admitted before the cut complete first
    assertThat(algorithm.lastStep())
        .isEqualTo("checking the cut: calls admitted before it still in flight");
    limit = algorithm.nextLimit(window(100 * MS, 10, 0, 0.15), limit);
    assertThat(limit).isEqualTo(40); // same latency with fewer calls in flight: not a queue
    assertThat(algorithm.lastStep()).startsWith("the cut left the slow tail as slow");
    assertThat(algorithm.baselineNanos()).isGreaterThan(80 * MS);
    for (int i = 0; i < 20; i++) {
      limit = algorithm.nextLimit(window(100 * MS, 19, 0, 0.2), limit);
      assertThat(limit).isBetween(40, 47); // toward 2 * 19 + 2 sqrt(19), never a cut
    }
  }

  @Test
  void aMixOfFastAndSlowPagesDoesNotCutAgainAfterASlowerDependencyWasFound() {
    int limit = findASlowerDependency();
    // The fast page dominates some windows, the slow one others: the median flips.
    for (int i = 0; i < 20; i++) {
      long p50 = i % 3 == 0 ? 3 * MS : 100 * MS;
      limit = algorithm.nextLimit(window(p50, 39, 0, 0.3), limit);
      assertThat(limit).as("window %s", i).isGreaterThanOrEqualTo(40);
    }
    for (int i = 0; i < 50; i++) {
      limit = algorithm.nextLimit(window(3 * MS, 10, 0, 0.3), limit);
    }
    // Ten seconds later a rise with idle CPU cuts again, as it did the first time.
    limit = algorithm.nextLimit(window(100 * MS, 39, 0, 0.2), limit);
    limit = algorithm.nextLimit(window(100 * MS, 39, 0, 0.2), limit);
    assertThat(limit).isLessThan(40);
  }

  @Test
  void aFullLimitGrowsWhileTheSlowerDependencyIsRemembered() {
    int limit = findASlowerDependency();
    for (int i = 0; i < 4; i++) { // the fast page alone: the baseline follows its median down
      limit = algorithm.nextLimit(window(3 * MS, 10, 0, 0.3), limit);
    }
    // Both pages again: the mix's median reads several times that baseline, the CPU is idle and
    // every permit is taken. Holding here would turn calls away for nothing.
    int before = limit;
    for (int i = 0; i < 3; i++) {
      limit = algorithm.nextLimit(window(20 * MS, limit, 0, 0.3), limit);
    }
    assertThat(limit).isGreaterThan(before);
  }

  @Test
  void growthThatRaisesTheSlowTailShowsItWasAQueueAfterAll() {
    int limit = findASlowerDependency(); // the check saw a tail of 100 ms
    // A pool behind the limit: each call let in waits its turn, so the tail grows with the limit.
    limit = algorithm.nextLimit(window(140 * MS, limit, 0, 0.2), limit);
    // Full while the slower dependency is remembered: grows, by sqrt(40) only, the verdict being
    // one window's.
    assertThat(limit).isEqualTo(47);
    assertThat(algorithm.lastStep()).startsWith("grow: full, slower dependency");
    limit = algorithm.nextLimit(window(160 * MS, limit, 0, 0.2), limit);
    assertThat(algorithm.lastStep())
        .contains("the slow tail rose with the limit: not a slower dependency after all");
    // The rise is judged again, full: cut at once, to a quarter plus 2 sqrt of that.
    assertThat(limit).isEqualTo(19);
    assertThat(algorithm.baselineNanos()).isLessThan(11 * MS); // as before the wrong verdict
  }

  @Test
  void callsHeldBackByTheThreadsShowItWasAQueueAfterAll() {
    int limit = findASlowerDependency();
    // 30 threads, all busy and each asking again as it finishes: the queue is in front of them,
    // where the tail cannot rise with it. The limit is given the window as run at the threads.
    WindowSample held = new WindowSample();
    for (int i = 0; i < 60; i++) { // 30 calls running throughout the window
      held.record(100 * MS);
    }
    held.setMaxInFlight(30).setCpu(0.2, TARGET).setWindowNanos(WINDOW).setThreads(30, 30, true);
    limit = algorithm.nextLimit(held, 30);
    assertThat(algorithm.lastStep())
        .contains("the threads hold the calls back: a queue, not a slower dependency");
    assertThat(algorithm.baselineNanos()).isLessThan(11 * MS); // as before the wrong verdict
    assertThat(limit).isLessThan(30);
  }

  @Test
  void aTailThatRoseWithFewerCallsInFlightIsTheServerSlowingNotASlowerDependency() {
    int limit = 40;
    limit = algorithm.nextLimit(window(100 * MS, 20, 0, 0.2), limit);
    limit = algorithm.nextLimit(window(100 * MS, 20, 0, 0.2), limit);
    assertThat(limit).isEqualTo(10); // cut, checked: the cut's window had a tail of 100 ms
    // The database behind the pool runs at a quarter of its speed for a second: with half the calls
    // in flight each takes longer than before the cut. A slower dependency's latency holds steady.
    limit = judgeTheCut(() -> window(150 * MS, 10, 0, 0.15), limit);
    assertThat(algorithm.lastStep())
        .contains("the slow tail rose with fewer calls in flight: the server slowed; the cut kept");
    assertThat(limit).isLessThanOrEqualTo(10);
    assertThat(algorithm.baselineNanos()).isLessThan(11 * MS);
  }

  @Test
  void smallCutsAreCheckedTogetherOnceTheyTookAQuarter() {
    int limit = algorithm.nextLimit(window(30 * MS, 100, 0, 0.2), 100);
    assertThat(limit).isEqualTo(82); // within the tail's noise: not checked alone
    assertThat(algorithm.lastStep()).doesNotContain("checked");
    limit = algorithm.nextLimit(window(30 * MS, limit, 0, 0.2), limit);
    assertThat(limit).isEqualTo(69);
    assertThat(algorithm.lastStep()).endsWith("checked once the calls before it complete");
    int cut = limit;
    limit = judgeTheCut(() -> window(30 * MS, cut, 0, 0.2), limit);
    assertThat(limit).isEqualTo(100); // the tail did not fall: back to before the first cut
  }

  @Test
  void recognisesASlowerDependencyWhenTheCutMakesTheFastPageTheMedian() {
    int limit = 40;
    limit = algorithm.nextLimit(mix(3 * MS, 10, 400 * MS, 30, 20, 0.3), limit);
    limit = algorithm.nextLimit(mix(3 * MS, 10, 400 * MS, 30, 20, 0.3), limit);
    assertThat(limit).isEqualTo(10);
    // Fewer slow calls admitted: the fast page is the median now, the slow one as slow as before.
    limit = judgeTheCut(() -> mix(3 * MS, 30, 400 * MS, 10, 10, 0.3), limit);
    assertThat(limit).isEqualTo(40);
  }

  @Test
  void doesNotAcceptAHigherLatencyWhileTheCpuClimbs() {
    int limit = algorithm.nextLimit(window(60 * MS, 40, 0, 0.5), 40);
    assertThat(limit).isEqualTo(21); // T = 40 / 3, plus 2 sqrt(T)
    limit = algorithm.nextLimit(window(60 * MS, limit, 0, 0.65), limit);
    assertThat(limit).isLessThanOrEqualTo(21); // not restored: the cut stands
    assertThat(algorithm.baselineNanos()).isLessThan(11 * MS);
  }

  @Test
  void judgesACutByTheCallsAdmittedAfterIt() {
    // A pool behind the limit: every permit taken and the median ten times the baseline. Full, so
    // cut at once, and checked.
    int limit = algorithm.nextLimit(window(100 * MS, 40, 0, 0.2), 40);
    assertThat(limit).isEqualTo(17);
    assertThat(algorithm.lastStep()).endsWith("checked once the calls before it complete");
    // The 40 calls admitted before the cut drain the pool's queue, as slow as before. Judged by
    // them, the cut would pass for a slower dependency and the baseline would learn the queue.
    for (int i = 0; i < 2; i++) {
      limit = algorithm.nextLimit(window(100 * MS, 17, 0, 0.2), limit);
      assertThat(limit).isEqualTo(17);
      assertThat(algorithm.lastStep())
          .isEqualTo("checking the cut: calls admitted before it still in flight");
    }
    // Then the calls admitted at the lower limit: a shorter queue, a shorter tail.
    limit = algorithm.nextLimit(window(45 * MS, 17, 0, 0.2), limit);
    assertThat(algorithm.lastStep()).contains("the cut shortened the slow tail: kept");
    assertThat(limit).isLessThanOrEqualTo(17);
    assertThat(algorithm.baselineNanos()).isLessThan(11 * MS);
  }

  /** A rise with idle CPU, the cut, and a check that finds the latency did not fall: limit 40. */
  private int findASlowerDependency() {
    int limit = 40;
    limit = algorithm.nextLimit(window(100 * MS, 20, 0, 0.2), limit);
    limit = algorithm.nextLimit(window(100 * MS, 20, 0, 0.2), limit);
    limit = judgeTheCut(() -> window(100 * MS, 10, 0, 0.15), limit);
    assertThat(limit).isEqualTo(40);
    return limit;
  }

  /**
   * Feeds windows from {@code next} while the check of a cut waits for the calls admitted before
   * it, the limit held meanwhile; returns the limit of the window that judged the cut.
   */
  private int judgeTheCut(Supplier<WindowSample> next, int limit) {
    for (int i = 0; i < 20; i++) {
      int judged = algorithm.nextLimit(next.get(), limit);
      if (!algorithm.lastStep().startsWith("checking the cut")) {
        return judged;
      }
      assertThat(judged).isEqualTo(limit);
    }
    throw new AssertionError("the cut was never judged");
  }
}
