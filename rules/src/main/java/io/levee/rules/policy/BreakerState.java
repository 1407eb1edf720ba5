package io.levee.rules.policy;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One state of a {@link CircuitBreaker}: exactly the three SPEC §2 names, and the table of moves
 * between them. A new object is made for every transition and never changes kind; the only mutable
 * parts are the counters of the calls seen while it is current (its window, its probes), which die
 * with it, so nothing counted in one state can leak into the next.
 *
 * <p>{@code countFrom}: a completion is credited to this state only if its call started at or after
 * this instant. After an open, that is the instant the breaker opened: no call was admitted while
 * open, so a call that started earlier was admitted before the trip and is stale.
 */
abstract class BreakerState {
  static final int CLOSED = 0;
  static final int OPEN = 1;
  static final int HALF_OPEN = 2;

  private static final String[] NAMES = {"closed", "open", "half-open"};

  // LEGAL[from][to]. Closed only opens; open only probes; half-open closes or re-opens.
  private static final boolean[][] LEGAL = {
    {false, true, false},
    {false, false, true},
    {true, true, false},
  };

  final int kind;
  final long since;

  /** Consecutive opens so far, the back-off exponent; 0 before the first open. */
  final int opens;

  BreakerState(int kind, long since, int opens) {
    this.kind = kind;
    this.since = since;
    this.opens = opens;
  }

  static boolean legal(int from, int to) {
    return from >= 0 && from < 3 && to >= 0 && to < 3 && LEGAL[from][to];
  }

  static String name(int kind) {
    return kind >= 0 && kind < 3 ? NAMES[kind] : "unknown(" + kind + ")";
  }

  /** Whether a call that started at {@code start} belongs to this state. */
  abstract boolean counts(long start);

  static final class Closed extends BreakerState {
    final RollingWindow window;

    /** The end of the ramp after a half-open ({@code since} when there is none). */
    final long rampUntil;

    final long countFrom;
    final boolean countsAll;
    final AtomicLong arrivals = new AtomicLong();

    /** Latches once the ramp is over, so the admitted path stops working out the ramp step. */
    volatile boolean rampDone;

    Closed(long since, long rampUntil, int opens, long countFrom, boolean countsAll, long window) {
      super(CLOSED, since, opens);
      this.window = new RollingWindow(window);
      this.rampUntil = rampUntil;
      this.countFrom = countFrom;
      this.countsAll = countsAll;
      this.rampDone = rampUntil == since;
    }

    @Override
    boolean counts(long start) {
      return countsAll || start - countFrom >= 0;
    }
  }

  static final class Open extends BreakerState {
    /** When the first probe may pass. */
    final long until;

    Open(long since, long until, int opens) {
      super(OPEN, since, opens);
      this.until = until;
    }

    @Override
    boolean counts(long start) {
      return false;
    }
  }

  static final class HalfOpen extends BreakerState {
    /** Past this instant, probes that have not all reported send the breaker back to open. */
    final long deadline;

    final long countFrom;
    final AtomicInteger probes = new AtomicInteger();
    final AtomicInteger good = new AtomicInteger();

    HalfOpen(long since, long deadline, Open from) {
      super(HALF_OPEN, since, from.opens);
      this.deadline = deadline;
      this.countFrom = from.since;
    }

    @Override
    boolean counts(long start) {
      return start - countFrom >= 0;
    }

    /** Admits a probe unless {@code limit} are already out. */
    boolean takeProbe(int limit) {
      for (; ; ) {
        int taken = probes.get();
        if (taken >= limit) {
          return false;
        }
        if (probes.compareAndSet(taken, taken + 1)) {
          return true;
        }
      }
    }

    void returnProbe() {
      for (; ; ) {
        int taken = probes.get();
        if (taken <= 0 || probes.compareAndSet(taken, taken - 1)) {
          return;
        }
      }
    }
  }
}
