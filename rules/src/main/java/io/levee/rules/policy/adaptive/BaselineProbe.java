package io.levee.rules.policy.adaptive;

import static io.levee.rules.policy.adaptive.GradientCpuLimit.FLAT;

/**
 * Now and then, a lower limit for a window or a few, to check {@link GradientCpuLimit}'s baseline.
 *
 * <p><b>Why.</b> A baseline first measured under overload (a cold start into a queue) would make
 * queueing look normal. So after {@link #AFTER_WINDOWS} windows held near the knee ({@link
 * WindowReading.Regime#HOLD}), the limit dips to {@link #STEP} of itself for one window. While the
 * median falls with it and stays under what the baseline explains, the baseline takes the lower
 * median and the probe steps down again; then the limit goes back to where the probe started and
 * the gradient judges it against the corrected baseline. The dips are relative, never a pin to the
 * minimum (Envoy's minRTT windows cause bursts of 503s). None while {@link DemandProbe} knows a
 * crowd: its latency is its own queue's, and a dip would only turn some of it away.
 *
 * <p><b>Cost.</b> Two fields and a comparison per window.
 */
final class BaselineProbe {
  /** {@link WindowReading.Regime#HOLD} windows between probes. */
  static final int AFTER_WINDOWS = 50;

  /** Each window of a probe runs at this share of the limit of the window before. */
  static final double STEP = 0.75;

  /** The median fell with the limit: below this share of the window before's. */
  static final double FALL = 0.9;

  private int heldWindows;

  /** The median of the window before the probe's current one. */
  private long p50Before;

  /**
   * One more window held near the knee; whether a probe is due now. {@code crowdKnown}: none is
   * while a crowd is known.
   */
  boolean due(boolean crowdKnown) {
    if (++heldWindows < AFTER_WINDOWS || crowdKnown) {
      return false;
    }
    heldWindows = 0;
    return true;
  }

  /** Whether one more step down from {@code limit} keeps to {@code minLimit}. */
  static boolean canStep(double limit, int minLimit) {
    return limit * STEP >= minLimit;
  }

  /**
   * The limit of the probe's next window, one step below {@code limit}; {@code p50} is the median
   * the window at it will be judged against.
   */
  double stepDown(double limit, long p50) {
    p50Before = p50;
    return limit * STEP;
  }

  /**
   * Whether the median {@code p50} of the window at the probe's limit fell with it, to within
   * {@code FLAT} of {@code baselineNanos}: the queue shrinks with the limit, and one step more may
   * find a lower median still.
   */
  boolean fellWithTheLimit(long p50, long baselineNanos) {
    return p50 < p50Before * FALL && p50 < baselineNanos * FLAT;
  }
}
