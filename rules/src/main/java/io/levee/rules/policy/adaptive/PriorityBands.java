package io.levee.rules.policy.adaptive;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How far into an {@link AdaptiveLimiter}'s limit each {@link io.levee.rules.model.Priority} may
 * go: the bands that make sheddable calls go first and critical ones last when the limit is full.
 *
 * <pre>
 *   sheddable  admitted while inFlight &lt; limit - max(1, limit / 8)   (while normal or critical
 *                                                                   calls are about; else limit)
 *   normal     admitted while inFlight &lt; limit                       (with the {@link ClassReserve})
 *   critical   admitted while criticalInFlight &lt; limit               (whatever else is in flight)
 * </pre>
 *
 * <p>A call already running cannot be taken back, so a critical call that finds the limit full
 * takes a permit beyond it; the normal and sheddable calls then wait below the limit until enough
 * of theirs finished, so the critical call in effect takes the next permit to come free. The limit
 * is so passed by at most the critical calls in flight, and only while they arrive at a full limit.
 * The sheddable band keeps the top eighth of the limit (one call at least) free of sheddable calls
 * for as long as other calls want it: when the load grows, the sheddable calls are turned away
 * while the others still find room. Without other calls (a service whose every page is sheddable)
 * the band would only waste the top of the limit, so it then opens.
 *
 * <p>The bands decide only who may take a permit; every admitted call is measured alike, so the
 * algorithm that moves the limit sees the same latency and CPU whatever the mix of priorities.
 *
 * <p>Concurrency: {@code critical} is CAS-incremented against the limit and decremented on release,
 * as the limiter's total is. It is read without a lock by sheddable calls, which may so see a
 * critical call a moment late: the band then opens or closes one call later.
 */
final class PriorityBands {
  private final AtomicInteger critical = new AtomicInteger();

  /** Takes a critical permit unless critical calls alone hold {@code limit}. */
  boolean tryTakeCritical(int limit) {
    for (; ; ) {
      int c = critical.get();
      if (c >= limit) {
        return false;
      }
      if (critical.compareAndSet(c, c + 1)) {
        return true;
      }
    }
  }

  /** Monitor mode: takes a critical permit whatever the limit; whether it was within it. */
  boolean takeCritical(int limit) {
    return critical.incrementAndGet() <= limit;
  }

  void releaseCritical() {
    critical.decrementAndGet();
  }

  /**
   * The most calls in flight under which a sheddable call is admitted. {@code othersActive}: normal
   * calls were admitted in the last second or so.
   */
  int sheddableCeiling(int limit, boolean othersActive) {
    if (!othersActive && critical.get() == 0) {
      return limit;
    }
    return limit - Math.max(1, limit >> 3);
  }

  int criticalInFlight() {
    return critical.get();
  }
}
