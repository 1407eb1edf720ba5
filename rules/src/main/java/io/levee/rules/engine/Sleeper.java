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
}
