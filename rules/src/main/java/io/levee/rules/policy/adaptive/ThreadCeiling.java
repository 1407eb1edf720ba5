package io.levee.rules.policy.adaptive;

/**
 * The container's worker threads, once a window showed them holding the calls back; for {@link
 * GradientCpuLimit}.
 *
 * <p><b>Why.</b> A limit at or above the threads turns nothing away once they are all busy: the
 * requests they cannot take wait in the container's queue, where no limit sees them, and a thread
 * that finishes takes the next at once. Nothing in the calls' latency need show it (a page that
 * waits on a steady downstream keeps its latency flat while the queue grows without end). Below the
 * threads, the one thread without a permit turns the queued requests away, each in well under a
 * millisecond, and the queue drains. So once the threads held the calls back ({@link
 * WindowSample#threadBound}), the limit stays at least one below them: growth past that would only
 * let the threads fill again and the queue grow back.
 *
 * <p><b>What.</b> Remembers the calls in flight of the last window the threads held back, and caps
 * the limit one below them. A window in which more threads asked than that forgets them (the pool
 * grew, or hands its calls round, and is no small pool after all), and so does one that kept fewer
 * of them busy than a window they hold back does: the overload is over, and the next one is caught
 * at its first window.
 *
 * <p><b>Cost.</b> A comparison per window.
 */
final class ThreadCeiling {
  /** The threads that held the calls back; 0 when none did. */
  private int threads;

  /** Learns from a window: threads that held its calls back, or more threads than remembered. */
  void read(WindowSample w) {
    if (w.threadBound()) {
      threads = w.maxInFlight();
    } else if (w.threads() > threads || w.busy() < WindowSample.BUSY_SHARE * threads) {
      threads = 0;
    }
  }

  /** Whether {@code estimate} reaches the threads remembered. */
  boolean caps(double estimate) {
    return threads > 0 && estimate > threads - 1;
  }

  /** {@code estimate}, at most one below the threads remembered. */
  double cap(double estimate) {
    return caps(estimate) ? Math.max(1, threads - 1) : estimate;
  }

  int threads() {
    return threads;
  }
}
