package io.levee.rules.policy;

import io.levee.rules.model.ConcurrencySpec;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * At most {@code max} calls in flight ({@code concurrency:} of SPEC §2), with an optional bounded
 * wait for a slot.
 *
 * <p>Admission is one CAS on an int; a call that must wait parks on a condition that only waiters
 * and the releases that find waiters touch, so an uncontended acquire and release take no lock.
 * Monitor mode counts calls past {@code max} too, so {@link #inFlight()} stays the true number.
 *
 * <p>Concurrency: {@code inFlight} is written by CAS from any thread. {@code waiters} is written
 * under {@code lock} and read without it by {@link #release()}; a waiter increments it before its
 * last try, and a release decrements {@code inFlight} before reading it, so either the waiter sees
 * the freed slot or the release sees the waiter and signals it (both fields are volatile).
 */
public final class ConcurrencyLimit {
  private static final AtomicIntegerFieldUpdater<ConcurrencyLimit> IN_FLIGHT =
      AtomicIntegerFieldUpdater.newUpdater(ConcurrencyLimit.class, "inFlight");

  private final int max;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition slotFreed = lock.newCondition();
  private volatile int inFlight;
  private volatile int waiters;

  public ConcurrencyLimit(ConcurrencySpec spec) {
    this.max = Math.max(1, spec.max);
  }

  /** Takes a slot if one is free now. */
  public boolean tryAcquire() {
    for (; ; ) {
      int current = inFlight;
      if (current >= max) {
        return false;
      }
      if (IN_FLIGHT.compareAndSet(this, current, current + 1)) {
        return true;
      }
    }
  }

  /**
   * Takes a slot, waiting up to {@code maxWaitNanos} for one. False on timeout, or on interrupt
   * (the interrupt flag is restored).
   */
  public boolean acquire(long maxWaitNanos) {
    if (tryAcquire()) {
      return true;
    }
    if (maxWaitNanos <= 0) {
      return false;
    }
    long deadline = System.nanoTime() + maxWaitNanos;
    lock.lock();
    try {
      waiters++;
      try {
        for (; ; ) {
          if (tryAcquire()) {
            return true;
          }
          long remaining = deadline - System.nanoTime();
          if (remaining <= 0) {
            return false;
          }
          slotFreed.awaitNanos(remaining);
        }
      } finally {
        waiters--;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      lock.unlock();
    }
  }

  /** Monitor mode: counts the call in flight whatever the limit; true when it was within it. */
  public boolean acquireUnconditionally() {
    return IN_FLIGHT.incrementAndGet(this) <= max;
  }

  /** Frees a slot; a release with nothing in flight is ignored rather than going below 0. */
  public void release() {
    for (; ; ) {
      int current = inFlight;
      if (current <= 0) {
        return;
      }
      if (IN_FLIGHT.compareAndSet(this, current, current - 1)) {
        break;
      }
    }
    if (waiters > 0) {
      lock.lock();
      try {
        slotFreed.signal();
      } finally {
        lock.unlock();
      }
    }
  }

  public int inFlight() {
    return inFlight;
  }

  public int limit() {
    return max;
  }
}
