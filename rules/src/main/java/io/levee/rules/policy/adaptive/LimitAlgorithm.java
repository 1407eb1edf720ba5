package io.levee.rules.policy.adaptive;

/**
 * Decides a concurrency limit: one step from the summary of a closed window to the next limit.
 * {@link AdaptiveLimiter} enforces whatever number this returns; an algorithm never sees a call.
 *
 * <p>Implementations may keep state between windows (a learned baseline), but only {@code
 * nextLimit} touches it, and the limiter calls it from one thread at a time with a happens-before
 * edge between calls, so that state needs no synchronisation. Each limiter owns its own instance.
 */
public interface LimitAlgorithm {
  /**
   * The limit for the next window.
   *
   * @param window what happened in the window that just closed; valid only during this call
   * @param currentLimit the limit that was enforced during that window
   */
  int nextLimit(WindowSample window, int currentLimit);

  /**
   * What the last {@link #nextLimit} did and why, in a few words ({@code grow}, {@code cut, checked
   * next window}), for {@link LimitTrace}; may be built on each call, which happens only while a
   * trace is read.
   */
  default String lastStep() {
    return "";
  }

  /**
   * Whether the next window's count of threads ({@link WindowSample#threads()}) goes on from the
   * window just closed: a thread seen in either then counts once, and the counts of the windows add
   * up to the threads seen in all of them. Asked after each {@link #nextLimit}.
   */
  default boolean countsThreadsOn() {
    return false;
  }

  /** The latency the algorithm compares a window with, 0 if it keeps none; for the trace. */
  default long baselineNanos() {
    return 0;
  }
}
