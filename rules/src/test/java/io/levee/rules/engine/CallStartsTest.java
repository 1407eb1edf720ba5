package io.levee.rules.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.time.ManualClock;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class CallStartsTest {
  private final ManualClock clock = new ManualClock(0);
  private final CallStarts starts = new CallStarts(clock);

  @Test
  void aDecisionHandsItsInstantToTheStartOfItsCallOnce() {
    starts.decided(7);
    clock.advanceNanos(100);
    assertThat(starts.take()).isEqualTo(7);
    assertThat(starts.take()).isEqualTo(clock.nanoTime()); // nothing pending: the clock
  }

  @Test
  void aThreadIsNewToEachWindowOnceAndOtherThreadsKeepTheirOwn() throws Exception {
    assertThat(starts.decidedIn(5, 1)).isTrue();
    assertThat(starts.take()).isEqualTo(5);
    assertThat(starts.decidedIn(6, 1)).isFalse();
    assertThat(starts.decidedIn(7, 2)).isTrue();
    starts.decided(8); // a resource's decision leaves the window kept
    assertThat(starts.decidedIn(9, 2)).isFalse();

    AtomicBoolean other = new AtomicBoolean();
    Thread t = new Thread(() -> other.set(starts.decidedIn(10, 2)));
    t.start();
    t.join();
    assertThat(other).isTrue();
  }
}
