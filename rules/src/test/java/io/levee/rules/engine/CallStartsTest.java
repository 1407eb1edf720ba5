package io.levee.rules.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.time.ManualClock;
import java.util.concurrent.atomic.AtomicInteger;
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
  void countsHowOftenAThreadAskedInAWindowAndOtherThreadsKeepTheirOwn() throws Exception {
    assertThat(starts.decidedIn(5, 1)).isEqualTo(1);
    assertThat(starts.take()).isEqualTo(5);
    assertThat(starts.decidedIn(6, 1)).isEqualTo(2);
    assertThat(starts.decidedIn(6, 1)).isEqualTo(3);
    assertThat(starts.decidedIn(6, 1)).isEqualTo(3); // counted up to 3
    assertThat(starts.decidedIn(7, 2)).isEqualTo(1);
    starts.decided(8); // a resource's decision leaves the count as it was
    assertThat(starts.decidedIn(9, 2)).isEqualTo(2);

    AtomicInteger other = new AtomicInteger();
    Thread t = new Thread(() -> other.set(starts.decidedIn(10, 2)));
    t.start();
    t.join();
    assertThat(other).hasValue(1);
  }
}
