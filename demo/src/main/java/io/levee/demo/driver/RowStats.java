package io.levee.demo.driver;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The counts of one row of the table (a stream of requests) over a span of time: sent, served,
 * served-with-fallback, blocked by reason, failed, and latency. The driver keeps one per row for
 * the last tick and one for the whole scenario.
 *
 * <p>Concurrency: responses arrive on the HTTP client's threads and the table reads on the driver's
 * thread; every method is synchronized, which costs nothing at a few hundred requests a second.
 */
final class RowStats {
  private long sent;
  private long ok;
  private long fallback;
  private long blocked;
  private long errors;
  private long retryAfter;
  private final Map<String, Long> reasons = new LinkedHashMap<>();
  private final Map<String, Long> errorReasons = new LinkedHashMap<>();
  private final Histogram all = new Histogram();
  private final Histogram admitted = new Histogram();

  synchronized void countSent() {
    sent++;
  }

  synchronized void record(Outcome outcome, long nanos) {
    all.record(nanos);
    switch (outcome.kind()) {
      case OK -> {
        ok++;
        admitted.record(nanos);
      }
      case FALLBACK -> fallback++;
      case BLOCKED -> blocked++;
      case ERROR -> {
        errors++;
        admitted.record(nanos);
      }
    }
    if (outcome.reason() != null) {
      (outcome.kind() == Outcome.Kind.ERROR ? errorReasons : reasons)
          .merge(outcome.reason(), 1L, Long::sum);
    }
    if (outcome.retryAfter() && outcome.kind() == Outcome.Kind.BLOCKED) {
      retryAfter++;
    }
  }

  synchronized void add(RowStats other) {
    synchronized (other) {
      sent += other.sent;
      ok += other.ok;
      fallback += other.fallback;
      blocked += other.blocked;
      errors += other.errors;
      retryAfter += other.retryAfter;
      other.reasons.forEach((k, v) -> reasons.merge(k, v, Long::sum));
      other.errorReasons.forEach((k, v) -> errorReasons.merge(k, v, Long::sum));
      all.add(other.all);
      admitted.add(other.admitted);
    }
  }

  /** A copy that later responses do not change. */
  synchronized RowStats copy() {
    RowStats copy = new RowStats();
    copy.add(this);
    return copy;
  }

  synchronized long sent() {
    return sent;
  }

  synchronized long answered() {
    return all.count();
  }

  synchronized long ok() {
    return ok;
  }

  synchronized long fallback() {
    return fallback;
  }

  synchronized long blocked() {
    return blocked;
  }

  synchronized long errors() {
    return errors;
  }

  synchronized long retryAfter() {
    return retryAfter;
  }

  /** How many were refused or given a fallback for {@code reason}, like "429 rate". */
  synchronized long notServed(String reason) {
    return reasons.getOrDefault(reason, 0L);
  }

  /**
   * The most frequent reason a request was not served, like "429 rate" or "fallback"; "" if none.
   */
  synchronized String topReason() {
    return top(reasons);
  }

  /** The most frequent kind of failure, like "502" or "timeout"; "" if none. */
  synchronized String topError() {
    return top(errorReasons);
  }

  private static String top(Map<String, Long> counts) {
    String top = "";
    long most = 0;
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      if (e.getValue() > most) {
        top = e.getKey();
        most = e.getValue();
      }
    }
    return top;
  }

  /** p99 of the requests the application itself answered (not blocked, not fallback), in ms. */
  synchronized double p99Admitted() {
    return admitted.percentileMillis(0.99);
  }

  synchronized double p50Admitted() {
    return admitted.percentileMillis(0.50);
  }

  synchronized double p99All() {
    return all.percentileMillis(0.99);
  }
}
