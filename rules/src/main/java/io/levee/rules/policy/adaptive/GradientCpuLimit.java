package io.levee.rules.policy.adaptive;

import io.levee.rules.model.AdaptiveSpec;

/**
 * A concurrency limit moved by the latency gradient against a learned no-load baseline, with process
 * CPU as a guard.
 *
 * <p><b>What.</b> Once per window, the window's median latency is compared with a baseline: the
 * median the same calls take when nothing queues. Latency well above the baseline means calls are
 * queueing behind this limit (threads, a pool, a CPU, a downstream), so the limit comes down in
 * proportion. Flat latency while the limit is really used means there is room, so it grows. CPU above
 * {@code cpu-target} forces a proportional decrease even while latency looks fine, and growth fades
 * out as CPU approaches the target, so the CPU rule is a slope, never an on/off gate.
 *
 * <pre>
 *   ratio    = p50 / baseline
 *   gLatency = ratio > TOLERANCE ? TOLERANCE / ratio : 1
 *   gDrops   = dropRate > DROP_TOLERANCE ? 1 - dropRate : 1
 *   gCpu     = cpu > target and cpu not already falling ? target / cpu : 1
 *   g        = max(0.5, min(gLatency, gDrops, gCpu))
 *   g < 1                               : L = max(L / 2, g * min(L, maxInFlight))
 *   ratio <= FLAT, maxInFlight >= L / 2 : L = L + sqrt(L) * clamp((target - cpu) / CPU_BAND, 0, 1)
 *   otherwise                           : L unchanged
 *   L clamped to [min-limit, max-limit]; kept as a double so small steps add up
 * </pre>
 *
 * <p><b>Baseline.</b> A low envelope of the windows' medians. It follows a lower median quickly
 * (halfway each window). It rises only slowly (time constant {@code RELEARN_NANOS}) and only while
 * the window was unloaded: the limit not really used ({@code maxInFlight < L/2}) or already at its
 * floor, CPU at or below target, failures tolerated. Under overload it is frozen, so a long overload
 * cannot teach it that slow is normal (the baseline drift Uber reports for Cinnamon), while a
 * dependency that truly became slower is accepted after a while instead of being starved forever.
 * Comparing median with median keeps a service whose calls are bimodal (cache hits and misses) from
 * looking congested; a minimum-based baseline collapses on one lucky call (Vegas, concurrency-limits
 * #37).
 *
 * <p><b>Probes.</b> A baseline first measured under overload (a cold start into a queue) would make
 * queueing look normal. So after {@code PROBE_AFTER} windows held near the knee, the limit dips to
 * {@code PROBE_STEP} of itself for one window. If the median falls with it, calls were queueing:
 * the baseline takes the lower median and the probe steps down again; as soon as the median stops
 * falling, the limit goes back to the last level that still helped. From six times the useful
 * concurrency that is about seven windows; on a server that was right all along it costs one window
 * at 3/4 of the limit. The dips are relative, never a pin to the minimum (Envoy's minRTT windows
 * cause bursts of 503s).
 *
 * <p><b>Regimes.</b> Healthy: latency flat, the limit grows by about √L per window while in use and
 * holds while the application does not need it, so a healthy service is never cut. Entering
 * overload: the worst of the three signals cuts, at most by half per window, from the concurrency
 * actually in use, so 200 comes down to 25 in three windows (0.3–0.75 s). Near the knee (median
 * between {@code FLAT} and {@code TOLERANCE} times the baseline) the limit holds, apart from probes:
 * no slow upward creep under mild overload (concurrency-limits #134). Failures above {@code
 * DROP_TOLERANCE} of the calls count as congestion (timeouts hide the gradient: #137); below it, a
 * service's usual error rate does not erode the limit.
 *
 * <p><b>Cost.</b> O(1) arithmetic per window, no allocation; the histogram sweep belongs to the
 * recorder.
 *
 * <p><b>References.</b> Netflix concurrency-limits {@code Gradient2Limit} (gradient, app-limited
 * hold); Envoy adaptive concurrency (median against a no-load median, √L headroom); Sentinel system
 * rules and go-kratos BBR (CPU as the overload signal, and why a CPU gate must not be bang-bang).
 */
public final class GradientCpuLimit implements LimitAlgorithm {
  static final double TOLERANCE = 1.5;
  static final double FLAT = 1.2;
  static final double DROP_TOLERANCE = 0.1;
  static final double CPU_BAND = 0.1;
  static final double MAX_CUT = 0.5;
  static final long RELEARN_NANOS = 20_000_000_000L;
  static final int MIN_LATENCY_SAMPLES = 3;
  static final int PROBE_AFTER = 20;
  static final double PROBE_STEP = 0.75;
  static final double PROBE_FALL = 0.9;

  private final int minLimit;
  private final int maxLimit;
  private double estimate;
  private int lastLimit = -1;
  private long baselineNanos;
  private double lastCpu;
  private int heldWindows;
  private double probeFrom;
  private long probeP50;

  public GradientCpuLimit(AdaptiveSpec spec) {
    this.minLimit = spec.minLimit;
    this.maxLimit = spec.maxLimit;
  }

  /** The learned no-load median latency; 0 until the first window with enough samples. */
  public long baselineNanos() {
    return baselineNanos;
  }

  @Override
  public int nextLimit(WindowSample w, int currentLimit) {
    if (currentLimit != lastLimit) {
      estimate = currentLimit;
    }
    double cpu = w.cpu();
    double target = w.cpuTarget();
    boolean cpuFalling = cpu < lastCpu;
    lastCpu = cpu;
    if (w.samples() + w.drops() == 0) {
      return remember(currentLimit);
    }

    boolean latencyKnown = w.samples() >= MIN_LATENCY_SAMPLES;
    long p50 = w.percentileRttNanos(0.5);
    if (latencyKnown && baselineNanos == 0) {
      baselineNanos = p50;
    }
    boolean dropsTolerated = w.dropRate() <= DROP_TOLERANCE;
    if (probeFrom > 0) {
      if (dropsTolerated && cpu <= target) {
        estimate = probeStep(latencyKnown, p50);
        return remember((int) Math.round(estimate));
      }
      probeFrom = 0; // real trouble: stay at the probe's lower limit and decide as usual
    }
    double ratio = latencyKnown ? (double) p50 / baselineNanos : 1;

    double g = 1;
    if (ratio > TOLERANCE) {
      g = TOLERANCE / ratio;
    }
    if (!dropsTolerated) {
      g = Math.min(g, 1 - w.dropRate());
    }
    if (cpu > target && !cpuFalling) {
      g = Math.min(g, target / cpu);
    }
    g = Math.max(MAX_CUT, g);

    boolean appLimited = w.maxInFlight() * 2 < estimate;
    if (g < 1) {
      double inUse = Math.min(estimate, Math.max(1, w.maxInFlight()));
      estimate = Math.max(estimate * MAX_CUT, g * inUse);
    } else if (latencyKnown && ratio <= FLAT && !appLimited) {
      double headroom = Math.min(1, Math.max(0, (target - cpu) / CPU_BAND));
      estimate += Math.sqrt(estimate) * headroom;
    } else if (latencyKnown && !appLimited && ++heldWindows >= PROBE_AFTER) {
      startProbe(p50);
    }
    estimate = Math.min(maxLimit, Math.max(minLimit, estimate));

    if (latencyKnown) {
      learnBaseline(w, p50, appLimited || currentLimit <= minLimit, cpu <= target && dropsTolerated);
    }
    return remember((int) Math.round(estimate));
  }

  private void startProbe(long p50) {
    heldWindows = 0;
    if (estimate * PROBE_STEP >= minLimit) {
      probeFrom = estimate;
      probeP50 = p50;
      estimate *= PROBE_STEP;
    }
  }

  /** The window that just closed ran at a probe's lower limit: did latency follow it down? */
  private double probeStep(boolean latencyKnown, long p50) {
    if (!latencyKnown) {
      double back = probeFrom;
      probeFrom = 0;
      return back;
    }
    baselineNanos = Math.min(baselineNanos, p50);
    if (p50 < probeP50 * PROBE_FALL && estimate * PROBE_STEP >= minLimit) {
      probeFrom = estimate;
      probeP50 = p50;
      return estimate * PROBE_STEP;
    }
    double back = p50 < probeP50 * PROBE_FALL ? estimate : probeFrom;
    probeFrom = 0;
    return back;
  }

  private void learnBaseline(WindowSample w, long p50, boolean unloaded, boolean calm) {
    if (p50 < baselineNanos) {
      baselineNanos = (baselineNanos + p50) / 2;
    } else if (unloaded && calm) {
      double step = Math.min(1, (double) w.windowNanos() / RELEARN_NANOS);
      baselineNanos += (long) Math.ceil((p50 - baselineNanos) * step);
    }
  }

  private int remember(int limit) {
    lastLimit = limit;
    return limit;
  }
}
