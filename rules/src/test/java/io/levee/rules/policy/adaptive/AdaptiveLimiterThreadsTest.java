package io.levee.rules.policy.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.AdaptiveSpec;
import io.levee.rules.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link AdaptiveLimiter} counting the threads that ask, and windows they held back. */
class AdaptiveLimiterThreadsTest {
  private static final long MS = 1_000_000L;

  private final ManualClock clock = new ManualClock();
  private final ManualCpu cpu = new ManualCpu(0.42);
  private final AdaptiveLimiterTest.Recording algorithm = new AdaptiveLimiterTest.Recording();
  private final AdaptiveLimiter limiter =
      new AdaptiveLimiter(new AdaptiveSpec(1, 50, 3, 0.7), clock, cpu, algorithm);

  @Test
  void countsTheThreadsNewToAWindowAndGoesOnCountingWhileTheAlgorithmAsks() {
    long start = clock.nanoTime();
    int first = limiter.window();
    assertThat(first).isNotZero();
    limiter.threadAsked(1);
    limiter.threadAsked(1);
    limiter.threadAsked(2); // a thread that asks again counts once more, as one that did
    limiter.threadAsked(3);
    closeAWindow(start + 150 * MS);
    assertThat(algorithm.threads).isEqualTo(2);
    assertThat(algorithm.threadsAgain).isEqualTo(1);
    assertThat(limiter.window()).isNotEqualTo(first); // every thread is new to the next window

    algorithm.countsOn = true;
    int second = limiter.window();
    limiter.threadAsked(1);
    closeAWindow(start + 300 * MS);
    assertThat(algorithm.threads).isEqualTo(1);
    assertThat(limiter.window()).isEqualTo(second); // a thread seen in either counts once

    algorithm.countsOn = false;
    closeAWindow(start + 450 * MS);
    assertThat(algorithm.threads).isZero();
    assertThat(limiter.window()).isNotEqualTo(second);
  }

  @Test
  void aWindowTheThreadsHeldBackBelowTheLimitIsJudgedAsRunAtTheCallsInFlight() {
    AdaptiveLimiter wide =
        new AdaptiveLimiter(new AdaptiveSpec(1, 50, 30, 0.7), clock, cpu, algorithm);
    List<String> lines = new ArrayList<>();
    wide.setTrace(
        new LimitTrace() {
          @Override
          public boolean tracing() {
            return true;
          }

          @Override
          public void windowClosed(String line) {
            lines.add(line);
          }
        });
    long start = clock.nanoTime();
    busyWindow(wide, 4, 4, start, start + 150 * MS); // four threads hold four calls, all busy
    assertThat(algorithm.windows).isEqualTo(1);
    assertThat(algorithm.currentLimit).isEqualTo(4);
    assertThat(lines).singleElement().asString().contains("the calls held at 4 by as many threads");
  }

  @Test
  void threadsAsManyAsTheCallsDoNotHoldThemBackWhileMoreAskedWithinAMinute() {
    AdaptiveLimiter wide =
        new AdaptiveLimiter(new AdaptiveSpec(1, 50, 30, 0.7), clock, cpu, algorithm);
    long start = clock.nanoTime();
    long second = start + 150 * MS;
    busyWindow(wide, 6, 3, start, second);
    assertThat(algorithm.currentLimit).isEqualTo(30);
    busyWindow(wide, 4, 4, second, second + 150 * MS); // four threads, four calls, as held back
    assertThat(algorithm.currentLimit).as("six threads asked 150 ms before").isEqualTo(30);
    long aMinuteOn = second + WindowRecorder.THREADS_MEMORY_NANOS + MS;
    wide.tryAcquire(aMinuteOn); // closes the idle window
    wide.release(aMinuteOn, MS, false);
    busyWindow(wide, 4, 4, aMinuteOn, aMinuteOn + 150 * MS);
    assertThat(algorithm.currentLimit).as("six asked more than a minute before").isEqualTo(4);
  }

  /**
   * One window from {@code from} to {@code to}: {@code threads} threads ask twice each, {@code
   * inFlight} calls run throughout it (Little's law: their latencies over its length make that many
   * busy), and none is left in flight after it.
   */
  private void busyWindow(AdaptiveLimiter l, int threads, int inFlight, long from, long to) {
    for (int i = 0; i < threads; i++) {
      l.threadAsked(1);
      l.threadAsked(2);
    }
    for (int i = 0; i < inFlight; i++) {
      l.tryAcquire(from);
    }
    long latency = inFlight * (to - from) / AdaptiveLimiter.MIN_EVENTS;
    for (int i = 0; i < AdaptiveLimiter.MIN_EVENTS; i++) {
      l.release(to, latency, false);
      l.tryAcquire(to);
    }
    for (int i = 0; i < inFlight; i++) {
      l.release(to, latency, false);
    }
  }

  private void closeAWindow(long at) {
    for (int i = 0; i < AdaptiveLimiter.MIN_EVENTS; i++) {
      limiter.tryAcquire(at);
      limiter.release(at, 5 * MS, false);
    }
  }
}
