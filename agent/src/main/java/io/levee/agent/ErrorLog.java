package io.levee.agent;

import io.levee.rules.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Logs the agent's internal errors (a dispatcher or advice that threw; the call went through
 * untracked) at most once per interval, with the number left out since the last line, so a bug on
 * a hot path cannot flood the log or slow the application down.
 *
 * <p>Concurrency: any thread reports; one compare-and-set on {@code nextNanos} elects the thread that
 * writes the line, every other one only counts.
 */
final class ErrorLog {
  static final long INTERVAL_NANOS = 60_000_000_000L;

  private final AgentLog log;
  private final Clock clock;
  private final AtomicLong nextNanos;
  private final AtomicLong skipped = new AtomicLong();

  ErrorLog(AgentLog log, Clock clock) {
    this.log = log;
    this.clock = clock;
    this.nextNanos = new AtomicLong(clock.nanoTime());
  }

  void report(Throwable error) {
    long now = clock.nanoTime();
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
}
