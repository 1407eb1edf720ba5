package io.levee.rules.policy.adaptive;

/**
 * The median latency the calls take when nothing queues, which {@link GradientCpuLimit} compares
 * each window's median with.
 *
 * <p><b>What.</b> A low envelope of the windows' medians. It follows a lower median quickly
 * (halfway each window). It rises only slowly (time constant {@link #RELEARN_NANOS}) and only while
 * the window was unloaded: the limit not really used ({@code maxInFlight < L/2}) or already at its
 * floor, CPU at or below target, failures tolerated; or at once when {@link SlowerDependency} finds
 * a slower dependency. Under overload it is frozen, so a long overload cannot teach it that slow is
 * normal (the baseline drift Uber reports for Cinnamon). Comparing median with median keeps a
 * service whose calls are bimodal (cache hits and misses) from looking congested; a minimum-based
 * baseline collapses on one lucky call (Vegas, concurrency-limits #37). {@link BaselineProbe}
 * checks now and then that it was not learned under load.
 */
final class Baseline {
  static final long RELEARN_NANOS = 20_000_000_000L;

  private long nanos;

  /** The baseline; 0 until the first window with enough samples for a median. */
  long nanos() {
    return nanos;
  }

  /** The first median known is the baseline until the windows teach otherwise. */
  void first(long p50) {
    if (nanos == 0) {
      nanos = p50;
    }
  }

  /** A steady window's median {@code p50}, which rises the baseline only if the window was calm. */
  void learn(long p50, long windowNanos, boolean unloaded, boolean calm) {
    if (p50 < nanos) {
      nanos = (nanos + p50) / 2;
    } else if (unloaded && calm) {
      double step = Math.min(1, (double) windowNanos / RELEARN_NANOS);
      nanos += (long) Math.ceil((p50 - nanos) * step);
    }
  }

  /** At once to {@code p50}: the calls were found to take that long without a queue. */
  void relearn(long p50) {
    nanos = p50;
  }

  /** To {@code nanos} if that is lower. */
  void lowerTo(long nanos) {
    this.nanos = Math.min(this.nanos, nanos);
  }
}
