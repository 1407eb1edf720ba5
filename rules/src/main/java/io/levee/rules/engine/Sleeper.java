package io.levee.rules.engine;

/** How a call waits for a reserved rate-limit token; tests substitute one that only records. */
public interface Sleeper {
  Sleeper SYSTEM =
      new Sleeper() {
        @Override
        public void sleepNanos(long nanos) throws InterruptedException {
          long millis = nanos / 1_000_000L;
          Thread.sleep(millis, (int) (nanos % 1_000_000L));
        }
      };

  void sleepNanos(long nanos) throws InterruptedException;

  /**
   * Sleeps {@code nanos} for a call whose token is reserved either way: an interrupt ends the wait
   * early and lets the call run, and the interrupt is left set for it.
   */
  default void sleepKeepingInterrupt(long nanos) {
    try {
      sleepNanos(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
