package io.levee.rules.time;

/**
 * The one monotonic clock every window, bucket and breaker reads. Production uses {@link #SYSTEM};
 * tests and simulations move a {@link ManualClock} by hand. Never the wall clock.
 */
public interface Clock {
  Clock SYSTEM =
      new Clock() {
        @Override
        public long nanoTime() {
          return System.nanoTime();
        }
      };

  long nanoTime();
}
