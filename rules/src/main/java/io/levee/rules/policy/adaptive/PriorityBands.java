package io.levee.rules.policy.adaptive;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How far into an {@link AdaptiveLimiter}'s limit each {@link io.levee.rules.model.Priority} may
 * go: the bands that make sheddable calls go first and critical ones last when the limit is full.
 *
 * <pre>
 *   sheddable  admitted while inFlight &lt; limit - max(1, limit / 8)   (while normal or critical
 *                                                                   calls are about; else limit)
 *              and, if a normal call was refused within the last window's length,
 *              while inFlight &lt; limit / 2
 *   normal     admitted while inFlight &lt; limit                       (with the {@link ClassReserve})
 *   critical   admitted while criticalInFlight &lt; limit               (whatever else is in flight)
 * </pre>
 *
 * <p>The band alone only makes sheddable calls the first to go when the limit fills; under a
 * sustained overload they would still take a permit whenever a few came free at once, a large part
 * of what normal calls get (see {@code PrioritySimulationTest}). So a refused normal call, the sign
 * that normal calls want more than the limit holds, keeps sheddable calls to the bottom half of the
 * limit for the length of the limiter's window (twice the median latency, 50 ms to 1 s: the time
 * the calls in flight take to turn over). Shutting them out altogether would cost throughput:
 * admitted calls arrive in bursts, and the normal and critical calls alone, even offered at more
 * than the capacity, leave the limit nearly empty now and then, with the CPU idle. The bottom half
 * is where a sheddable call uses time no other call wanted.
 *
 * <p>The bands decide only who may take a permit; every admitted call is measured alike, so the
 * algorithm that moves the limit sees the same latency and CPU whatever the mix of priorities.
 *
 * <p>Concurrency: {@code critical} is CAS-incremented against the limit and decremented on release,
 * as the limiter's total is. It is read without a lock by sheddable calls, which may so see a
 * critical call a moment late: the band then opens or closes one call later. {@code
 * normalRefusedAt} is written by refused normal calls, racily: the last write wins, and any of the
 * racing instants is as good a start for the window.
 */
final class PriorityBands {
  /** Normal calls refused within this of each other are one refusal: fewer writes under a flood. */
  private static final long REFUSAL_RESOLUTION_NANOS = 1_000_000L;

  private final AtomicInteger critical = new AtomicInteger();

  /** When a normal call was last refused; long before {@code start} if never. */
  private volatile long normalRefusedAt;

  PriorityBands(long start) {
    this.normalRefusedAt = start - (1L << 62);
  }

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

  /** A normal call was refused at {@code now}: sheddable calls wait for a window. */
  void normalRefused(long now) {
    if (now - normalRefusedAt >= REFUSAL_RESOLUTION_NANOS) {
      normalRefusedAt = now;
    }
  }

  /**
   * The most calls in flight under which a sheddable call is admitted at {@code now}. {@code
   * othersActive}: normal calls were admitted in the last second or so; {@code windowNanos}: the
   * limiter's window.
   */
  int sheddableCeiling(int limit, boolean othersActive, long now, long windowNanos) {
    int ceiling = othersActive || critical.get() > 0 ? limit - Math.max(1, limit >> 3) : limit;
    if (now - normalRefusedAt < windowNanos) {
      ceiling = Math.min(ceiling, limit >> 1);
    }
    return ceiling;
  }

  int criticalInFlight() {
    return critical.get();
  }
}
