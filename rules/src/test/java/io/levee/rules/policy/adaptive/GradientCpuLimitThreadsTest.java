package io.levee.rules.policy.adaptive;

import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.MS;
import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.TARGET;
import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.WINDOW;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.AdaptiveSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link GradientCpuLimit} in front of a container whose worker threads hold the calls back ({@link
 * ThreadCeiling}).
 */
class GradientCpuLimitThreadsTest {
  private final AdaptiveSpec spec = new AdaptiveSpec(2, 200, 20, TARGET);
  private GradientCpuLimit algorithm;

  @BeforeEach
  void learnBaselineOfTenMillis() {
    algorithm = GradientCpuLimitTest.learnedTenMillis(spec);
  }

  @Test
  void threadsThatHoldTheCallsBackKeepTheLimitBelowThemWhateverTheLatency() {
    // 10 threads, all busy and each asking again as it finishes, the latency flat: the queue is in
    // front of the threads. The limiter gives the window as run at the 10 calls in flight.
    int limit = algorithm.nextLimit(window(10 * MS, 10, 10, 10, 10), 10);
    assertThat(limit).isEqualTo(9);
    assertThat(algorithm.lastStep()).contains("kept below the 10 threads that held the calls");
    // The one thread without a permit turns the queue away; the latency stays flat and the limit
    // full, and growth would only let the threads fill again.
    for (int i = 0; i < 50; i++) {
      limit = algorithm.nextLimit(window(10 * MS, 9, 9, 10, 0), limit);
      assertThat(limit).as("window %s", i).isEqualTo(9);
    }
  }

  @Test
  void moreThreadsThanRememberedForgetThem() {
    int limit = algorithm.nextLimit(window(10 * MS, 10, 10, 10, 10), 10);
    assertThat(limit).isEqualTo(9);
    // A pool that grew, or hands its calls round: 40 threads asked.
    limit = algorithm.nextLimit(window(10 * MS, 9, 9, 40, 0), limit);
    limit = algorithm.nextLimit(window(10 * MS, limit, limit, 40, 0), limit);
    assertThat(limit).isGreaterThan(9);
    assertThat(algorithm.lastStep()).doesNotContain("threads that held the calls");
  }

  @Test
  void anOverloadThatEndedForgetsThem() {
    int limit = algorithm.nextLimit(window(10 * MS, 10, 10, 10, 10), 10);
    assertThat(limit).isEqualTo(9);
    // Half the threads busy: the queue is gone; the next overload is caught at its first window.
    limit = algorithm.nextLimit(window(10 * MS, 5, 9, 10, 3), limit);
    assertThat(algorithm.lastStep()).doesNotContain("threads that held the calls");
    limit = algorithm.nextLimit(window(10 * MS, 9, 9, 10, 3), limit);
    limit = algorithm.nextLimit(window(10 * MS, 9, 9, 10, 3), limit);
    assertThat(limit).isGreaterThan(9);
  }

  @Test
  void withoutACountOfThreadsNothingIsCapped() {
    int limit = 40;
    for (int i = 0; i < 5; i++) {
      limit = algorithm.nextLimit(GradientCpuLimitTest.window(10 * MS, limit, 0, 0.2), limit);
    }
    assertThat(limit).isGreaterThan(100);
  }

  @Test
  void aProbeSaysWhichBoundSetItsHeight() {
    // 64 clients met by a limit of 8, as in the crowd tests: the 67 threads that asked lift the
    // first probe above twice the limit; without a count of threads it goes to twice the limit.
    assertThat(firstProbe(67))
        .contains("a higher limit (as high as the threads; 67 threads asked,")
        .contains("the refusals before allow ");
    algorithm = GradientCpuLimitTest.learnedTenMillis(spec);
    assertThat(firstProbe(0)).contains("a higher limit (2x the limit, threads not counted)");
  }

  /** The words of the first probe's start, the crowd of 64 clients asking from {@code threads}. */
  private String firstProbe(int threads) {
    CrowdLoads.Crowd crowd = new CrowdLoads.Crowd(64, 2, 10 * MS);
    int limit = 8;
    boolean countedOn = false;
    for (int i = 0; i < 50; i++) { // 10 s
      WindowSample w = crowd.window(limit).setThreads(countedOn ? 0 : threads, 0, !countedOn);
      limit = algorithm.nextLimit(w, limit);
      countedOn = algorithm.countsThreadsOn();
      if (algorithm.lastStep().contains("a higher limit")) {
        return algorithm.lastStep();
      }
    }
    return "no probe";
  }

  /**
   * A window of flat latency {@code p50} in which {@code busy} calls ran throughout, {@code
   * maxInFlight} at most, asked for by {@code threads} threads, {@code again} of them twice.
   */
  private static WindowSample window(long p50, int busy, int maxInFlight, int threads, int again) {
    WindowSample w = new WindowSample();
    for (long i = 0; i < busy * WINDOW / p50; i++) {
      w.record(p50);
    }
    return w.setMaxInFlight(maxInFlight)
        .setCpu(0.2, TARGET)
        .setWindowNanos(WINDOW)
        .setThreads(threads, again, true);
  }
}
