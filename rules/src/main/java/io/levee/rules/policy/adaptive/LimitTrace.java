package io.levee.rules.policy.adaptive;

import java.util.Locale;

/**
 * Who is told, window by window, how an adaptive limit moved and why: the agent's log at {@code
 * debug}, where an operator reads why a limit fell or grew. {@link #tracing} is asked at every
 * window close, so the line is built only while someone reads it; when it is, the closing thread
 * (an application thread) builds it and must hand it off rather than write it.
 */
public interface LimitTrace {
  /** Whether lines are wanted now; false costs the closing thread nothing more. */
  boolean tracing();

  /** One window closed: {@code line} says what it saw and what the algorithm made of it. */
  void windowClosed(String line);

  /**
   * {@code 48 -> 72, grow (median 12.1 ms = 1.10 x baseline 11.0 ms, p90 30.2 ms; 40 in flight at
   * most; 120 calls, 0 failed, 0 refused in 250 ms; cpu 25 %, target 80 %)}; calls refused below
   * the limit are named when there are any ({@code 312 refused (200 below the limit) in 83 ms}).
   */
  static String line(int from, int to, WindowSample w, String step, long baselineNanos) {
    StringBuilder b = new StringBuilder(160);
    b.append(from).append(" -> ").append(to);
    b.append(step.isEmpty() ? "" : ", ").append(step).append(" (");
    if (w.samples() > 0) {
      long p50 = w.percentileRttNanos(0.5);
      b.append("median ").append(millis(p50));
      if (baselineNanos > 0) {
        b.append(" = ").append(format("%.2f", (double) p50 / baselineNanos));
        b.append(" x baseline ").append(millis(baselineNanos));
      }
      b.append(", p90 ").append(millis(w.percentileRttNanos(0.9))).append("; ");
    }
    b.append(w.maxInFlight()).append(" in flight at most; ");
    b.append(w.samples()).append(" calls, ").append(w.drops()).append(" failed, ");
    b.append(w.refused()).append(" refused");
    if (w.refusedBelowLimit() > 0) { // the top of the limit kept for other pages
      b.append(" (").append(w.refusedBelowLimit()).append(" below the limit)");
    }
    b.append(" in ");
    b.append(w.windowNanos() / 1_000_000).append(" ms; cpu ");
    b.append(Math.round(w.cpu() * 100)).append(" %, target ");
    b.append(Math.round(w.cpuTarget() * 100)).append(" %)");
    return b.toString();
  }

  static String millis(long nanos) {
    return format("%.1f ms", nanos / 1e6);
  }

  static String format(String pattern, double value) {
    return String.format(Locale.ROOT, pattern, value);
  }
}
