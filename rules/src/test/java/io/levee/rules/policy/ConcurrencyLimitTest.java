package io.levee.rules.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.ConcurrencySpec;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ConcurrencyLimitTest {
  private static final long TEN_SECONDS = TimeUnit.SECONDS.toNanos(10);

  private final ConcurrencyLimit limit = new ConcurrencyLimit(new ConcurrencySpec(2, 0));

  @Test
  void admitsUpToMaxThenRejects() {
    assertThat(limit.tryAcquire()).isTrue();
    assertThat(limit.tryAcquire()).isTrue();
    assertThat(limit.tryAcquire()).isFalse();
    assertThat(limit.inFlight()).isEqualTo(2);
    assertThat(limit.limit()).isEqualTo(2);
  }

  @Test
  void releaseFreesASlot() {
    limit.tryAcquire();
    limit.tryAcquire();
    limit.release();
    assertThat(limit.inFlight()).isEqualTo(1);
    assertThat(limit.tryAcquire()).isTrue();
  }

  @Test
  void extraReleaseNeverDrivesCountBelowZero() {
    limit.tryAcquire();
    limit.release();
    limit.release();
    assertThat(limit.inFlight()).isZero();
    assertThat(limit.tryAcquire()).isTrue();
    assertThat(limit.tryAcquire()).isTrue();
    assertThat(limit.tryAcquire()).isFalse();
  }

  @Test
  void monitorModeCountsCallsPastTheLimit() {
    assertThat(limit.acquireUnconditionally()).isTrue();
    assertThat(limit.acquireUnconditionally()).isTrue();
    assertThat(limit.acquireUnconditionally()).isFalse();
    assertThat(limit.inFlight()).isEqualTo(3);
    limit.release();
    limit.release();
    limit.release();
    assertThat(limit.inFlight()).isZero();
  }

  @Test
  void acquireWithoutWaitRejectsAtOnceWhenFull() {
    limit.tryAcquire();
    limit.tryAcquire();
    assertThat(limit.acquire(0)).isFalse();
  }

  @Test
  void acquireTimesOutWhenNoSlotIsFreed() {
    limit.tryAcquire();
    limit.tryAcquire();
    assertThat(limit.acquire(TimeUnit.MILLISECONDS.toNanos(20))).isFalse();
    assertThat(limit.inFlight()).isEqualTo(2);
  }

  @Test
  void waiterGetsTheSlotAReleaseFrees() throws Exception {
    limit.tryAcquire();
    limit.tryAcquire();
    AtomicBoolean got = new AtomicBoolean();
    CountDownLatch started = new CountDownLatch(1);
    Thread waiter =
        new Thread(
            () -> {
              started.countDown();
              got.set(limit.acquire(TEN_SECONDS));
            });
    waiter.start();
    started.await();
    Thread.sleep(20);
    limit.release();
    waiter.join(TEN_SECONDS / 1_000_000);
    assertThat(waiter.isAlive()).isFalse();
    assertThat(got).isTrue();
    assertThat(limit.inFlight()).isEqualTo(2);
  }

  @Test
  void interruptedWaiterGivesUpAndKeepsItsInterruptFlag() throws Exception {
    limit.tryAcquire();
    limit.tryAcquire();
    AtomicBoolean got = new AtomicBoolean(true);
    AtomicBoolean flagKept = new AtomicBoolean();
    Thread waiter =
        new Thread(
            () -> {
              got.set(limit.acquire(TEN_SECONDS));
              flagKept.set(Thread.currentThread().isInterrupted());
            });
    waiter.start();
    Thread.sleep(20);
    waiter.interrupt();
    waiter.join(TEN_SECONDS / 1_000_000);
    assertThat(waiter.isAlive()).isFalse();
    assertThat(got).isFalse();
    assertThat(flagKept).isTrue();
    assertThat(limit.inFlight()).isEqualTo(2);
  }

  @Test
  void everyWaiterIsServedWhenSlotsAreFreedOneByOne() throws Exception {
    ConcurrencyLimit one = new ConcurrencyLimit(new ConcurrencySpec(1, 0));
    one.tryAcquire();
    int n = 4;
    CountDownLatch done = new CountDownLatch(n);
    Thread[] waiters = new Thread[n];
    for (int i = 0; i < n; i++) {
      waiters[i] =
          new Thread(
              () -> {
                if (one.acquire(TEN_SECONDS)) {
                  done.countDown();
                  one.release();
                }
              });
      waiters[i].start();
    }
    Thread.sleep(20);
    one.release();
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    for (Thread t : waiters) {
      t.join();
    }
    assertThat(one.inFlight()).isZero();
  }
}
