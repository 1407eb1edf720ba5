package io.levee.agent.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.testing.EngineFixture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LogThreadTest {
  private final EngineFixture.Lines target = new EngineFixture.Lines();

  @Test
  void writesPostedLinesInOrderOnItsOwnThread() throws Exception {
    CountDownLatch written = new CountDownLatch(3);
    EventLog counting =
        new EventLog() {
          @Override
          public void info(String m) {
            target.info(m + " on " + Thread.currentThread().getName());
            written.countDown();
          }

          @Override
          public void warn(String m) {
            target.warn(m + " on " + Thread.currentThread().getName());
            written.countDown();
          }

          @Override
          public void error(String m) {
            target.error(m + " on " + Thread.currentThread().getName());
            written.countDown();
          }
        };
    LogThread log = new LogThread(counting, null, TimeUnit.SECONDS.toNanos(10));
    log.start(null);
    log.info("a");
    log.warn("b");
    log.error("c");

    assertThat(written.await(10, TimeUnit.SECONDS)).isTrue();
    log.close();
    assertThat(target.lines)
        .containsExactly("INFO a on levee-log", "WARN b on levee-log", "ERROR c on levee-log");
  }

  @Test
  void dropsLinesPastItsCapacityAndSaysHowMany() {
    LogThread log = new LogThread(target, null, TimeUnit.SECONDS.toNanos(10));
    for (int i = 0; i < LogThread.CAPACITY + 5; i++) {
      log.info("line " + i);
    }
    log.flush();

    assertThat(target.lines).hasSize(LogThread.CAPACITY + 1);
    assertThat(target.lines.get(0))
        .isEqualTo("WARN 5 log lines dropped: events came faster than the log could take them");
    assertThat(target.lines.get(LogThread.CAPACITY))
        .isEqualTo("INFO line " + (LogThread.CAPACITY - 1));
  }

  @Test
  void runsTheStartTaskFirstThenThePeriodicTaskAndStopsOnClose() throws Exception {
    AtomicInteger ticks = new AtomicInteger();
    AtomicReference<Thread> ticker = new AtomicReference<>();
    CountDownLatch ticked = new CountDownLatch(2);
    CountDownLatch first = new CountDownLatch(1);
    LogThread log =
        new LogThread(
            target,
            () -> {
              ticker.set(Thread.currentThread());
              ticks.incrementAndGet();
              ticked.countDown();
            },
            TimeUnit.MILLISECONDS.toNanos(10));
    log.start(first::countDown);

    assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(ticked.await(10, TimeUnit.SECONDS)).isTrue();
    log.close();
    int after = ticks.get();
    // Once the thread has ended it can tick no more: wait for that, not for a while.
    Thread thread = ticker.get();
    thread.join(TimeUnit.SECONDS.toMillis(10));
    assertThat(thread.isAlive()).as("the log thread ended").isFalse();
    assertThat(thread.getName()).isEqualTo("levee-log");
    assertThat(ticks.get()).as("no tick after close returned").isEqualTo(after);
  }
}
