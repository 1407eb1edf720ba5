package io.levee.rules.policy.adaptive;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The share of an {@link AdaptiveLimiter}'s limit each class of calls may use: the top eighth kept
 * for the classes holding less than their share, and a floor under every class.
 *
 * <p>A caller may say which class a call belongs to (the {@code system} rule: the page, see {@code
 * Engine}), one of {@link AdaptiveLimiter#CLASSES}. When calls of more than one class were admitted
 * in the last second or so, the top eighth of the limit is kept for the classes holding less than
 * the mean share of the calls in flight: a page whose calls pile up (a slower downstream) stops at
 * seven eighths and is turned away first, while the other pages are still admitted up to the whole
 * limit. Without it, one page that can fill the container's worker threads leaves the others
 * waiting for a thread, where no limit sees them. The reserve is {@code limit / 8}, 0 below a limit
 * of 8. And every class keeps a floor: one holding fewer than {@code limit / (2 * active classes)}
 * calls (rounded down) is admitted even at the limit, so a page that did not fill the limit does
 * not wait while a cut drains the calls of the page that did (the limit may fall below the calls in
 * flight). The limit can so be passed by at most half of itself, and only by the classes holding
 * the least. Only normal calls are counted here: critical and sheddable ones have their own bands
 * ({@link PriorityBands}), which the reserve would only blur.
 *
 * <p>Concurrency: any thread counts its class in and out ({@code inFlight}, atomic per class) and
 * sets its class's bit in {@code seen} by CAS. The limiter's window-closing thread alone moves
 * {@code seen} to {@code seenBefore} and writes {@code seenSince}, once at least {@link
 * #MEMORY_NANOS} have passed; a class admitted during that move counts in either period. {@link
 * #admits} reads all of them without a lock, before the limiter's CAS on its total, so a class's
 * count may miss the calls being admitted at that instant; the total itself is held by that CAS.
 */
final class ClassReserve {
  /** How long a class counts as active after its last admitted call, at least. */
  static final long MEMORY_NANOS = 1_000_000_000L;

  private final AtomicIntegerArray inFlight = new AtomicIntegerArray(AdaptiveLimiter.CLASSES);

  /** Bit per class admitted since {@code seenSince}; {@code seenBefore}: the period before it. */
  private final AtomicInteger seen = new AtomicInteger();

  private volatile int seenBefore;
  private volatile long seenSince;

  ClassReserve(long now) {
    this.seenSince = now;
  }

  /**
   * Whether a call of class {@code cls} may take a permit while {@code current} calls of all
   * classes are in flight under {@code limit}.
   */
  boolean admits(int cls, int current, int limit) {
    if (current < limit - (limit >> 3)) {
      return current < limit;
    }
    int active = Integer.bitCount(seen.get() | seenBefore | (1 << cls));
    if (active < 2) {
      return current < limit;
    }
    int mine = inFlight.get(cls);
    return current < limit ? (long) mine * active < current : mine < limit / (2 * active);
  }

  /**
   * The smallest limit whose top eighth, kept for the classes holding less than their share, begins
   * at or above {@code calls}: a limit under which they are all admitted whatever their classes.
   */
  static int limitAbove(int calls) {
    int limit = Math.max(0, calls);
    while (limit - (limit >> 3) < calls) {
      limit++;
    }
    return limit;
  }

  /** Whether any class was admitted in the last second or so. */
  boolean anySeen() {
    return (seen.get() | seenBefore) != 0;
  }

  void admitted(int cls) {
    inFlight.incrementAndGet(cls);
    int bit = 1 << cls;
    for (int s = seen.get(); (s & bit) == 0; s = seen.get()) {
      if (seen.compareAndSet(s, s | bit)) {
        break;
      }
    }
  }

  void released(int cls) {
    inFlight.decrementAndGet(cls);
  }

  /** Called by the thread that closes the limiter's window, one at a time. */
  void windowClosed(long now) {
    if (now - seenSince >= MEMORY_NANOS) {
      seenBefore = seen.getAndSet(0);
      seenSince = now;
    }
  }
}
