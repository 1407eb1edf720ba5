package io.levee.rules.time;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told to: for tests, simulations and benchmarks. */
public final class ManualClock implements Clock {
  private final AtomicLong now;

  public ManualClock() {
    this(1_000_000_000L);
  }

  public ManualClock(long startNanos) {
    this.now = new AtomicLong(startNanos);
  }

  @Override
  public long nanoTime() {
    return now.get();
  }

  public void advance(long amount, TimeUnit unit) {
    now.addAndGet(unit.toNanos(amount));
  }

  public void advanceNanos(long nanos) {
    now.addAndGet(nanos);
  }

  public void advanceMillis(long millis) {
    advance(millis, TimeUnit.MILLISECONDS);
  }
}
