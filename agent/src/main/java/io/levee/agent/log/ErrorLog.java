package io.levee.agent.log;

import io.levee.rules.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Logs the agent's internal errors (a dispatcher or hook that threw; the call went through
 * untracked): the first of each kind (type, message and the frame that threw) at once, then at most
 * once per interval, with the number left out since the last line, so a bug on a hot path cannot
 * flood the log or slow the application down.
 *
 * <p>Concurrency: any thread reports; one compare-and-set on {@code nextNanos} elects the thread
 * that writes the line, every other one only counts.
 */
public final class ErrorLog {
  static final long INTERVAL_NANOS = 60_000_000_000L;
  static final int MAX_SITES = 64;

  private final AgentLog log;
  private final Clock clock;
  private final AtomicLong nextNanos;
  private final AtomicLong skipped = new AtomicLong();
  private final Set<String> sites = ConcurrentHashMap.newKeySet();

  public ErrorLog(AgentLog log, Clock clock) {
    this.log = log;
    this.clock = clock;
    this.nextNanos = new AtomicLong(clock.nanoTime());
  }

  public void report(Throwable error) {
    long now = clock.nanoTime();
    if (firstAt(error)) {
      nextNanos.set(now + INTERVAL_NANOS);
      log.warn("internal error, the call went through unprotected", error);
      return;
    }
    long next = nextNanos.get();
    if (now - next < 0 || !nextNanos.compareAndSet(next, now + INTERVAL_NANOS)) {
      skipped.incrementAndGet();
      return;
    }
    long more = skipped.getAndSet(0);
    log.warn(
        "internal error, the call went through unprotected"
            + (more > 0 ? " (" + more + " more since the last report)" : ""),
        error);
  }

  /**
   * Whether {@code error} is the first of its kind (type, message, the frame that threw), so a new
   * failure is logged at once even right after another; at most {@link #MAX_SITES} kinds, then the
   * interval alone applies.
   */
  private boolean firstAt(Throwable error) {
    if (sites.size() >= MAX_SITES) {
      return false;
    }
    StackTraceElement[] trace = error.getStackTrace();
    String site =
        error.getClass().getName()
            + ": "
            + error.getMessage()
            + (trace.length > 0 ? " at " + trace[0] : "");
    return sites.add(site);
  }
}
