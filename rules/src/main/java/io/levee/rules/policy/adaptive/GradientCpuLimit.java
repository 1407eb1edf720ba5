package io.levee.rules.policy.adaptive;

import io.levee.rules.model.AdaptiveSpec;

/**
 * A concurrency limit moved by the latency gradient against a learned no-load baseline; process CPU
 * decides how far a latency rise is trusted and how fast the limit may grow.
 *
 * <p><b>What.</b> Once per window, the window's median latency is compared with a baseline: the
 * median the same calls take when nothing queues. Latency well above the baseline means calls queue
 * behind this limit (for a CPU, a pool, a downstream), so the limit comes down to the concurrency
 * that would carry the same work without the queue. Flat latency while the limit is really used
 * means there is room, so it grows: fast while the CPU is below {@code cpu-target}, one call per
 * window above it. Each row of the table below is one {@link WindowReading.Regime}.
 *
 * <pre>
 *   ratio    = p50 / baseline
 *   gLatency = ratio > TOLERANCE ? TOLERANCE / ratio : 1   (CPU below target: not on the first
 *              such window unless the limit is full, nor while a slower dependency is remembered;
 *              any CPU: not while the limit is not full and the calls are within a known crowd)
 *   gDrops   = dropRate > DROP_TOLERANCE ? 1 - dropRate : 1
 *   g        = max(MAX_CUT, min(gLatency, gDrops))
 *   T        = g * min(L, maxInFlight);   busy = T + HEADROOM * sqrt(T)
 *              (busy = T in a window the worker threads held back: WindowSample.threadBound)
 *   CPU above target:
 *     CUT_TO_BUSY    g < 1, busy < L                   : L = max(L * MAX_CUT, busy)
 *     CREEP_TO_BUSY  busy > L, maxInFlight >= L / 2    : L = min(busy, L + 1)
 *   CPU below target:
 *     CUT            g < 1                             : L = max(L * MAX_CUT, min(L, busy))
 *     GROW           ratio <= FLAT (or full while a slower dependency is remembered),
 *                    maxInFlight >= L / 2 in this window and the one before
 *                                                      : L = L + max(sqrt(L), L * FAST_GROWTH)
 *                                                        (only sqrt(L) if ratio > FLAT)
 *     DRIFT_TO_HELD  ratio <= FLAT, maxInFlight < L / 2 : L moves toward held
 *   HOLD, KEEP       otherwise                         : L unchanged
 *   CUT, HOLD or KEEP with the CPU below target, the limit full (or its top kept for other
 *   classes of calls) and calls turned away: now and then L is raised for a few windows, to see
 *   whether they are a bounded crowd ({@link DemandProbe})
 *   full = maxInFlight >= the enforced limit
 *   peak = max(maxInFlight of a window with the CPU at or below target,
 *              peak decaying with PEAK_MEMORY_NANOS)
 *   held = max(initial-limit / 3, 2 peak + HEADROOM * sqrt(peak))
 *   L clamped to [min-limit, max-limit], and below the threads that held the calls back
 *   ({@link ThreadCeiling}); kept as a double so small steps add up; the limit enforced is L
 *   rounded up
 * </pre>
 *
 * <p><b>CPU saturation.</b> With every core busy, {@code T} is about {@code TOLERANCE} times the
 * calls the cores run at once (by Little's law, {@code inUse / p50} is the throughput, and times
 * the no-load latency it is the concurrency that carries it without a queue). Alone, that is too
 * few and unstable when it is small: part of a call's time is spent off the CPU (the container's
 * handoffs, socket writes), and part of the CPU goes to work the limit does not count (reading and
 * turning away the requests it rejects, GC), so the loaded latency overstates the queue behind the
 * limit. Each cut then adds rejects, which take CPU, which slow the admitted calls, which cut
 * again, down to a limit so small that the CPU idles between calls and goodput falls (the overload
 * benchmark, and the simulation's one-CPU server; docs/BENCHMARKS.md). So above the CPU target the
 * limit moves toward {@code busy}: the {@code HEADROOM * sqrt(T)} calls of headroom (Envoy's square
 * root, doubled) keep a call ready while others are off the CPU, cost only a few calls' CPU time of
 * latency, and put a floor under that spiral. It moves down at once (at most to a quarter per
 * window) and up one call per window, so it settles instead of hunting, and a step to twice the
 * capacity is absorbed in a few windows. A cut with the CPU below target keeps the same headroom:
 * calls that wait for a pooled connection or a busy database hold their permits off this CPU just
 * as well, and without it a mild rise (the pool's queue at its knee) cuts again and again to just
 * the calls the pool runs, where the slow tail of a few dozen calls can pass for a slower
 * dependency (the simulation's database behind a pool; docs/BENCHMARKS.md). The CPU target is not
 * an operating point: holding the CPU at 80 % would throw away a fifth of the capacity, and a CPU
 * gate that rejects everything above it is a square wave (Sentinel's CPU rule, go-kratos'
 * cool-off).
 *
 * <p><b>A slower dependency is not overload.</b> Calls that wait on a downstream use no CPU, so a
 * latency rise with the CPU below target may be a slower dependency rather than a queue behind this
 * limit: it cuts only on the second such window in a row, and {@link SlowerDependency} checks the
 * cut once the calls admitted before it have completed ({@link Mode#CHECKING_CUT}). If the slow
 * tail did not fall with the concurrency, the baseline takes the new median, the limit goes back,
 * and for a while such rises neither cut nor stop growth on a full limit, until the slow tail rises
 * with the limit after all.
 *
 * <p><b>The threads are a limit too.</b> Once the container's worker threads held the calls back,
 * the limit stays below them, whatever the latency ({@link ThreadCeiling}).
 *
 * <p><b>A crowd is not a stream.</b> A closed loop of clients (each sends again only when answered)
 * queues as long as it is large, yet never longer, and refusing some of them only makes them send
 * again; an open stream's queue grows for as long as the limit lets it. Only letting more in tells
 * them apart ({@link Mode#PROBING_DEMAND}, {@link DemandProbe}).
 *
 * <p><b>Baseline.</b> A low envelope of the windows' medians, frozen under overload ({@link
 * Baseline}).
 *
 * <p><b>Probes.</b> A baseline first measured under overload would make queueing look normal, so
 * now and then the limit dips for a window or a few ({@link Mode#PROBING}, {@link BaselineProbe}).
 *
 * <p><b>A sudden step.</b> Growth waits for a second window of use, and a full limit is cut on the
 * first window of risen latency ({@link WindowReading}).
 *
 * <p><b>Regimes.</b> Healthy: the limit grows while in use; while the application needs less, it
 * moves (time constant {@code IDLE_DECAY_NANOS}) toward {@code held}, twice the peak concurrency of
 * the last seconds plus headroom, and never below a third of the initial limit (a quiet service
 * whose peak is one call must still take the six parallel requests of a browser). The peak learns
 * only from windows with the CPU at or below target: the calls an overload holds are the limit's
 * doing, not the application's need. So a healthy service is never cut below what it uses and sees
 * no rejects, and a sudden overload meets a limit near what the application needed a moment ago
 * rather than a long-forgotten peak, which would let that many calls share the CPU when the load
 * jumps, with the requests being turned away waiting behind them. Overload: cut from the
 * concurrency actually in use, at most to a quarter per window. Near the knee (median between
 * {@code FLAT} and {@code TOLERANCE} times the baseline) the limit holds while the CPU is below
 * target, apart from probes: no slow upward creep under mild overload (concurrency-limits #134);
 * above it, it holds at {@code busy}. Failures above {@code DROP_TOLERANCE} of the calls count as
 * congestion (timeouts hide the gradient: #137); below it, a service's usual error rate does not
 * erode the limit.
 *
 * <p><b>Cost.</b> O(1) arithmetic per window, no allocation; the histogram sweep belongs to the
 * recorder. The simulation in the tests ({@code policy.adaptive.sim}) is where the constants come
 * from.
 *
 * <p><b>References.</b> Netflix concurrency-limits {@code Gradient2Limit} (gradient, app-limited
 * hold); Envoy adaptive concurrency (median against a no-load median, √L headroom); Sentinel system
 * rules and go-kratos BBR (CPU as the overload signal, and why a CPU gate must not be bang-bang).
 */
public final class GradientCpuLimit implements LimitAlgorithm {
  static final double TOLERANCE = 2.0;
  static final double FLAT = 1.25;
  static final double DROP_TOLERANCE = 0.1;
  static final double MAX_CUT = 0.25;
  static final double FAST_GROWTH = 0.5;
  static final int MIN_LATENCY_SAMPLES = 3;
  static final double HEADROOM = 2;
  static final long IDLE_DECAY_NANOS = 2_000_000_000L;
  static final long PEAK_MEMORY_NANOS = 3_000_000_000L;

  /** What the next window is for: the regimes, or an experiment that judges it first. */
  private enum Mode {
    /** The window is judged by the {@link WindowReading.Regime}s. */
    STEADY,
    /** The window ran at a probe's lower limit: does the median fall with it? */
    PROBING,
    /** The window ran after a cut with the CPU below target: did the slow tail fall with it? */
    CHECKING_CUT,
    /** The window ran at a {@link DemandProbe}'s raised limit: do the calls stop below it? */
    PROBING_DEMAND
  }

  private final int minLimit;
  private final int maxLimit;
  private final double restingFloor;
  private final WindowReading now = new WindowReading();
  private final Baseline baseline = new Baseline();
  private final DemandProbe demand = new DemandProbe();
  private final BaselineProbe baselineProbe = new BaselineProbe();
  private final SlowerDependency dependency = new SlowerDependency();
  private final ThreadCeiling ceiling = new ThreadCeiling();

  /** L, the limit as a real number. */
  private double estimate;

  /** The limit returned last: a different current limit (clamped, replaced) restarts from it. */
  private int lastLimit = -1;

  private Mode mode = Mode.STEADY;

  /** While probing or checking a cut: the estimate to go back to. */
  private double returnTo;

  private final StepWords step = new StepWords();

  public GradientCpuLimit(AdaptiveSpec spec) {
    this.minLimit = spec.minLimit;
    this.maxLimit = spec.maxLimit;
    this.restingFloor = spec.initialLimit / 3.0;
  }

  /** The learned no-load median latency; 0 until the first window with enough samples. */
  @Override
  public long baselineNanos() {
    return baseline.nanos();
  }

  /** A demand probe counts the threads over all its windows ({@link DemandProbe}). */
  @Override
  public boolean countsThreadsOn() {
    return mode == Mode.PROBING_DEMAND;
  }

  @Override
  public int nextLimit(WindowSample w, int currentLimit) {
    if (currentLimit != lastLimit) {
      estimate = currentLimit;
    }
    step.clear();
    if (w.samples() + w.drops() == 0) {
      step.note("no calls completed");
      return remember(currentLimit);
    }
    now.readCpuAndLatency(w);
    ceiling.read(w);
    if (now.latencyKnown) {
      baseline.first(now.p50);
    }
    if (mode == Mode.PROBING) {
      estimate = probeStep();
      return enforce(estimate);
    }
    if (mode == Mode.CHECKING_CUT) {
      if (!now.cpuHot && dependency.waitForLaterCalls(w, currentLimit)) {
        step.note("checking the cut: calls admitted before it still in flight");
        return remember(currentLimit);
      }
      mode = Mode.STEADY;
      if (dependency.found(w, now)) {
        step.note(
            "the cut left the slow tail as slow: a slower dependency, not a queue;"
                + " baseline relearned, limit back");
        dependency.remember(baseline.nanos());
        baseline.relearn(now.p50);
        estimate = returnTo;
        return enforce(estimate);
      }
      step.note(dependency.cutKept());
    }
    if (mode == Mode.PROBING_DEMAND) {
      return demandProbeStep(w, currentLimit);
    }
    String undone = dependency.undone(w, now.latencyKnown);
    if (undone != null) {
      baseline.lowerTo(dependency.forget());
      step.note(undone);
    }
    boolean crowd = demand.withinCrowd(w.maxInFlight());
    boolean dependencySlow = dependency.remembered(w.windowNanos());
    now.readGradient(w, currentLimit, estimate, baseline.nanos(), crowd, dependencySlow);
    WindowReading.Regime regime = now.regime(estimate);
    step.regime(regime);
    if (!regime.heldBack()) {
      dependency.cutsBehind(); // grown, drifted, or moved toward busy: the cuts are behind
    }
    switch (regime) {
      case CUT_TO_BUSY:
        estimate = Math.max(estimate * MAX_CUT, now.busy);
        break;
      case CREEP_TO_BUSY:
        estimate = Math.min(now.busy, estimate + 1);
        break;
      case CUT:
        cut(w);
        break;
      case GROW:
        grow();
        break;
      case DRIFT_TO_HELD:
        driftToHeld(w);
        break;
      case HOLD:
        hold();
        break;
      case KEEP:
        break;
    }
    estimate = Math.min(maxLimit, Math.max(minLimit, estimate));
    if (ceiling.caps(estimate)) {
      step.cappedBelow(ceiling.threads());
    }
    estimate = Math.max(minLimit, ceiling.cap(estimate));
    if (now.latencyKnown) {
      baseline.learn(
          now.p50,
          w.windowNanos(),
          now.appLimited || currentLimit <= minLimit,
          !now.cpuHot && now.dropsTolerated);
    }
    if (now.appLimited) {
      demand.quiet();
    } else if (w.refused() == 0) {
      demand.turnedNoneAway();
    } else if (mode == Mode.STEADY
        && (now.full || w.refusedBelowLimit() > 0)
        && !now.cpuHot
        && regime.heldBack()) {
      double height = demand.due(w, estimate, maxLimit);
      if (height > 0 && start(Mode.PROBING_DEMAND, estimate)) {
        estimate = height;
        step.note(demand.startWords());
      }
    }
    return enforce(estimate);
  }

  /** A window at a {@link DemandProbe}'s limit: a crowd keeps it, a stream goes back. */
  private int demandProbeStep(WindowSample w, int currentLimit) {
    DemandProbe.Verdict verdict =
        !now.dropsTolerated
            ? demand.stream("calls failing, as for a stream")
            : demand.judge(w.maxInFlight(), currentLimit, w.threads(), w.refusedBelowLimit() > 0);
    switch (verdict) {
      case GROWING:
        step.note("probe: calls in flight still growing below the raised limit");
        return remember(currentLimit);
      case RAISED:
        step.note("probe: calls turned away in the top kept for other pages; raised above them");
        estimate = demand.raised();
        return enforce(estimate);
      case CROWD:
        mode = Mode.STEADY;
        estimate = Math.min(maxLimit, demand.aboveCrowd());
        step.note(
            "probe: the calls stopped at " + demand.crowd() + ", a bounded crowd; limit above it");
        return enforce(estimate);
      default:
        mode = Mode.STEADY;
        estimate = returnTo;
        step.note("probe: " + demand.why() + "; limit back");
        return enforce(estimate);
    }
  }

  /** Down toward {@code busy}, as above the CPU target; a cut on a latency rise may be checked. */
  private void cut(WindowSample w) {
    double before = estimate;
    double floor = Math.min(estimate, now.busy);
    estimate = Math.max(estimate * MAX_CUT, floor);
    if (!now.rise || !now.dropsTolerated) {
      return;
    }
    double checkFrom = dependency.cut(w, before, estimate, now.full);
    if (checkFrom > 0 && start(Mode.CHECKING_CUT, checkFrom)) {
      step.cutChecked();
    }
  }

  /** Growth on one window of use only would follow a step before its latency shows. */
  private void grow() {
    if (now.usedTwice) {
      estimate += Math.max(Math.sqrt(estimate), now.flat ? estimate * FAST_GROWTH : 0);
    }
  }

  private void driftToHeld(WindowSample w) {
    double peak = Math.max(1, now.recentPeak);
    double held = Math.max(restingFloor, 2 * peak + HEADROOM * Math.sqrt(peak));
    double step = Math.min(1, (double) w.windowNanos() / IDLE_DECAY_NANOS);
    estimate += (held - estimate) * step;
  }

  /**
   * Unchanged; now and then a downward probe, unless it would pass the floor or a crowd is known.
   */
  private void hold() {
    if (baselineProbe.due(demand.crowd() > 0) && BaselineProbe.canStep(estimate, minLimit)) {
      start(Mode.PROBING, estimate);
      estimate = baselineProbe.stepDown(estimate, now.p50);
      step.note("probe: a lower limit for one window, to check the baseline");
    }
  }

  /** A window at a {@link BaselineProbe}'s lower limit: one step more while the median falls. */
  private double probeStep() {
    if (now.latencyKnown) {
      boolean falling = baselineProbe.fellWithTheLimit(now.p50, baseline.nanos());
      baseline.lowerTo(now.p50);
      if (falling && BaselineProbe.canStep(estimate, minLimit)) {
        step.note("probe: the median fell with the limit; baseline lowered, one step more");
        return baselineProbe.stepDown(estimate, now.p50);
      }
    }
    mode = Mode.STEADY;
    step.note("probe over: back to the limit before it");
    return returnTo;
  }

  @Override
  public String lastStep() {
    return step.words(now, dependency.rememberedNanos());
  }

  /**
   * Starts an experiment that ends back at {@code from}. A limit of 0 or less (never the limiter's,
   * whose floor is at least 1) has nowhere to go back to and starts none.
   */
  private boolean start(Mode experiment, double from) {
    if (from <= 0) {
      return false;
    }
    mode = experiment;
    returnTo = from;
    return true;
  }

  /**
   * The limit enforced for an estimate: rounded up, so that an estimate that hovers between two
   * whole limits does not alternate between them window by window, and the lower one, which lets
   * the CPU idle between calls, costs no goodput. The tolerance keeps an exact product (40 * 1.5)
   * from rounding up once more.
   */
  private int enforce(double limit) {
    return remember((int) Math.ceil(limit - 1e-9));
  }

  private int remember(int limit) {
    lastLimit = limit;
    return limit;
  }
}
