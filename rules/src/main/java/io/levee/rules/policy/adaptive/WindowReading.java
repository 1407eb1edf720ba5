package io.levee.rules.policy.adaptive;

import static io.levee.rules.policy.adaptive.GradientCpuLimit.DROP_TOLERANCE;
import static io.levee.rules.policy.adaptive.GradientCpuLimit.FLAT;
import static io.levee.rules.policy.adaptive.GradientCpuLimit.HEADROOM;
import static io.levee.rules.policy.adaptive.GradientCpuLimit.MAX_CUT;
import static io.levee.rules.policy.adaptive.GradientCpuLimit.MIN_LATENCY_SAMPLES;
import static io.levee.rules.policy.adaptive.GradientCpuLimit.PEAK_MEMORY_NANOS;
import static io.levee.rules.policy.adaptive.GradientCpuLimit.TOLERANCE;

/**
 * What the window that just closed says in the terms of {@link GradientCpuLimit}'s table, and which
 * {@link Regime} it calls for, with the little it remembers of the windows before (the CPU, use,
 * the peak, a deferred rise). Filled in place each window, so that reading one allocates nothing,
 * and read only during {@link GradientCpuLimit#nextLimit}.
 *
 * <p><b>A sudden step.</b> The first window after the load doubles still holds mostly calls that
 * completed before it: the median is flat while {@code maxInFlight} jumps, and the CPU, averaged
 * over 0.2 s, still reads what it read before. Growth on a flat median therefore also asks that the
 * window before was using half the limit too: demand that grows over windows is followed one window
 * later, a step is judged by the latency of the window after it, and a burst on a quiet service is
 * carried by {@code held}, which learns its peak. A limit that is full (every enforced permit
 * taken) when the median rises is cut at once even with the CPU below target. A limit that grew in
 * the step's first window and was cut one window late would let several times the calls the CPU can
 * run share it until the cut, and that stretch decides the step's admitted p99. (A limit only
 * nearly full is still cut after two windows: in a mixed service a slower dependency fills most of
 * it at once, and the second window's check is what tells the two apart.)
 */
final class WindowReading {
  /** The rule that moves the limit in a steady window: one row of the table each. */
  enum Regime {
    /** CPU above target, latency risen or calls failing: down toward {@code busy}. */
    CUT_TO_BUSY,
    /** CPU above target, the limit used and below {@code busy}: up one call. */
    CREEP_TO_BUSY,
    /** CPU below target, latency risen or calls failing: down to {@code T}, maybe checked. */
    CUT,
    /** CPU below target, latency flat, the limit used: fast growth on the second such window. */
    GROW,
    /** CPU below target, latency flat, the limit not used: toward {@code held}. */
    DRIFT_TO_HELD,
    /** The limit used, no rule above applies (near the knee): unchanged, a probe now and then. */
    HOLD,
    /** Nothing to go by (no median, a first rise not yet trusted, slow calls but little use). */
    KEEP;

    /**
     * CUT, HOLD or KEEP: the limit neither grew nor moved toward busy or held; the calls a full
     * window turned away were held back.
     */
    boolean heldBack() {
      return this == CUT || this == HOLD || this == KEEP;
    }
  }

  boolean cpuHot;

  /** Enough samples for a median; without one, only failures and the CPU count. */
  boolean latencyKnown;

  long p50;
  boolean dropsTolerated;
  double ratio;

  /** The median rose past {@code TOLERANCE} and is trusted as a sign of a queue. */
  boolean rise;

  /** Every enforced permit was taken. */
  boolean full;

  /** The median within {@code FLAT} of the baseline: nothing queues. */
  boolean flat;

  /** Flat, or full while a slower dependency is remembered (whose growth is slower). */
  boolean roomToGrow;

  /** Less than half the limit was used: the application needs less than it. */
  boolean appLimited;

  /** At least half the limit was used in this window and the one before. */
  boolean usedTwice;

  double g;

  /** {@code T}: the calls that carry the same work without the queue. */
  double target;

  /** {@code T} plus headroom. */
  double busy;

  /** {@code peak} of the table. */
  double recentPeak;

  /** The last steady window was a first rise with the CPU below target, left uncut. */
  private boolean riseDeferred;

  /** Whether the previous window used at least half the limit. */
  private boolean usedBefore;

  /** What every window is read for, whatever the mode. */
  void readCpuAndLatency(WindowSample w) {
    cpuHot = w.cpu() > w.cpuTarget();
    latencyKnown = w.samples() >= MIN_LATENCY_SAMPLES;
    p50 = w.percentileRttNanos(0.5);
    dropsTolerated = w.dropRate() <= DROP_TOLERANCE;
  }

  /**
   * The gradient of a steady window and what it teaches about use and peak; the table's terms.
   * {@code crowd}: the calls in flight are within a crowd {@link DemandProbe} found, whose queue is
   * its own, so a rise cuts only if the limit is full. {@code dependencySlow}: {@link
   * SlowerDependency} remembers one, so a rise with the CPU below target does not cut, nor stop
   * growth on a full limit.
   */
  void readGradient(
      WindowSample w,
      int currentLimit,
      double estimate,
      long baselineNanos,
      boolean crowd,
      boolean dependencySlow) {
    ratio = latencyKnown ? (double) p50 / baselineNanos : 1;
    full = w.maxInFlight() >= currentLimit;
    rise = ratio > TOLERANCE && (cpuHot || !dependencySlow) && (full || !crowd);
    flat = ratio <= FLAT;
    roomToGrow = flat || full && dependencySlow;
    riseDeferred = rise && !cpuHot && !riseDeferred && !full;
    double gradient = 1;
    if (rise && !riseDeferred) {
      gradient = TOLERANCE / ratio;
    }
    if (!dropsTolerated) {
      gradient = Math.min(gradient, 1 - w.dropRate());
    }
    g = Math.max(MAX_CUT, gradient);

    appLimited = w.maxInFlight() * 2 < estimate;
    usedTwice = !appLimited && usedBefore;
    usedBefore = !appLimited;
    double forget = Math.exp(-(double) w.windowNanos() / PEAK_MEMORY_NANOS);
    recentPeak = Math.max(cpuHot ? 0 : w.maxInFlight(), recentPeak * forget);
    double inUse = Math.min(estimate, Math.max(1, w.maxInFlight()));
    target = g * inUse;
    // Headroom above calls that the worker threads hold back is above the threads: never used,
    // and a limit at the threads turns nothing away while the container's queue grows.
    busy = target + (w.threadBound() ? 0 : HEADROOM * Math.sqrt(target));
  }

  /** The regime in a few words, with what this window read to choose it; for the trace. */
  String words(Regime regime) {
    switch (regime) {
      case CUT_TO_BUSY:
        return "cut toward busy " + format(busy) + ": cpu above target, " + why();
      case CREEP_TO_BUSY:
        return "up one toward busy " + format(busy) + ": cpu above target";
      case CUT:
        return "cut toward " + format(target) + ": cpu below target, " + why();
      case GROW:
        if (!usedTwice) {
          return "grow next window if still used";
        }
        return flat ? "grow: latency flat, limit used" : "grow: full, slower dependency";
      case DRIFT_TO_HELD:
        return "toward the recent need: limit not used, peak " + format(recentPeak);
      case HOLD:
        return "hold: near the knee";
      default:
        return riseDeferred
            ? "keep: latency risen with cpu below target, cut if the next window shows it too"
            : "keep";
    }
  }

  private String why() {
    return g < 1 && !dropsTolerated && !rise ? "calls failing" : "latency risen";
  }

  private static String format(double calls) {
    return LimitTrace.format("%.1f", calls);
  }

  Regime regime(double estimate) {
    if (cpuHot) {
      if (g < 1 && busy < estimate) {
        return Regime.CUT_TO_BUSY;
      }
      if (latencyKnown && busy > estimate && !appLimited) {
        return Regime.CREEP_TO_BUSY;
      }
    } else {
      if (g < 1) {
        return Regime.CUT;
      }
      if (latencyKnown && roomToGrow && !appLimited) {
        return Regime.GROW;
      }
      if (latencyKnown && flat && appLimited) {
        return Regime.DRIFT_TO_HELD;
      }
    }
    return latencyKnown && !appLimited && !riseDeferred ? Regime.HOLD : Regime.KEEP;
  }
}
