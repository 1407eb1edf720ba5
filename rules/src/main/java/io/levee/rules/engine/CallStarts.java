package io.levee.rules.engine;

import io.levee.rules.time.Clock;

/**
 * Hands the clock read of a decision to the start of the same call, so that an admitted call that
 * is timed reads the clock once before it runs (the decision, which is also its start) instead of
 * twice. On a virtual machine one read can cost more than the rest of the decision.
 *
 * <p>The advice asks for the start right after the decision, on the same thread, with nothing in
 * between: {@link #decided} is written by the decision and {@link #take} consumes it. A policy that
 * waits (pacing, a concurrency wait) calls {@link #restarted}, as the call starts after the wait. A
 * start asked for without a decision before it finds the slot empty and reads the clock.
 *
 * <p>The slot also keeps the number of the {@code system} limit's window in which the thread last
 * asked, and how often it asked in it ({@link #decidedIn}), so that the limit counts the threads
 * that ask in each window, and those that ask again, without a second thread-local lookup.
 *
 * <p>Concurrency: one slot per thread, in a plain {@link ThreadLocal} holding a {@code long[]} (no
 * subclass and no class of the agent in the value, so a thread's map pins nothing of it).
 */
final class CallStarts {
  private static final int INSTANT = 0;
  private static final int SET = 1;
  private static final int WINDOW = 2;
  private static final int ASKS = 3;

  private final ThreadLocal<long[]> slots = new ThreadLocal<long[]>();
  private final Clock clock;

  CallStarts(Clock clock) {
    this.clock = clock;
  }

  /** The decision on this thread read {@code now}: the start of its call unless a policy waits. */
  void decided(long now) {
    long[] slot = slot();
    slot[INSTANT] = now;
    slot[SET] = 1;
  }

  /**
   * {@link #decided}, for a decision of the {@code system} limit, whose window now open is {@code
   * window} (never 0): how often this thread has asked in that window, this time included, counted
   * up to 3.
   */
  int decidedIn(long now, int window) {
    long[] slot = slot();
    slot[INSTANT] = now;
    slot[SET] = 1;
    if (slot[WINDOW] != window) {
      slot[WINDOW] = window;
      slot[ASKS] = 1;
    } else if (slot[ASKS] < 3) {
      slot[ASKS]++;
    }
    return (int) slot[ASKS];
  }

  private long[] slot() {
    long[] slot = slots.get();
    if (slot == null) {
      slot = new long[4];
      slots.set(slot);
    }
    return slot;
  }

  /** A policy of the decision on this thread waited: the call starts now. */
  void restarted() {
    decided(clock.nanoTime());
  }

  /** The start of the call decided last on this thread; the clock if none is pending. */
  long take() {
    long[] slot = slots.get();
    if (slot == null || slot[SET] == 0) {
      return clock.nanoTime();
    }
    slot[SET] = 0;
    return slot[INSTANT];
  }
}
