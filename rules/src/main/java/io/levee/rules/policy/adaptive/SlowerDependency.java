package io.levee.rules.policy.adaptive;

/**
 * Whether a latency rise with the CPU below target is a queue behind the limit or a slower
 * dependency; for {@link GradientCpuLimit}, which cuts on such a rise and lets this check the cut.
 *
 * <p><b>Why.</b> Calls that wait on a downstream use no CPU; with the CPU below target a latency
 * rise must show in two windows in a row before it cuts (one window of a mixed service is easily
 * dominated by its slow calls), and a cut made that way is checked: if the slow tail (p90) did not
 * fall with the concurrency, the calls were not queueing behind this limit, so the baseline takes
 * the new median at once and the limit goes back. The check judges a window of calls admitted after
 * the cut (those admitted before it waited in the old queue, and a queue that drains slowly, a
 * connection pool's, would pass for a slower dependency whose latency the baseline then learns),
 * and only if the cut lowered the calls in flight by a quarter, or the limit was not what held them
 * (a cut that leaves as many calls in flight cannot shorten their queue). Smaller cuts in a row are
 * checked together, once they took a quarter of the limit: the p90 of a window of a few dozen calls
 * moves by a fifth from one window to the next, so a cut of a tenth, checked alone, would find a
 * slower dependency by chance about half the time. Nor may the tail rise beyond that fifth: with
 * fewer calls in flight, a longer tail is a server that slowed by itself between the two windows (a
 * database sharing its CPU for a second), and taken for a slower dependency it sent the limit back
 * up to the queue it was cut from and taught the baseline that queue's latency (the petclinic
 * benchmark's open loop; the simulation's database with slow moments). Meanwhile the fast growth
 * while the CPU is idle lets the limit follow the calls that hold permits longer, so a fast page is
 * not starved by a slow one sharing the limit.
 *
 * <p><b>Remembered.</b> After such a check, latency rises with the CPU below target do not cut for
 * {@link #MEMORY_NANOS}: in a service that mixes fast and slow pages the median flips between them
 * with the mix a limit lets through (the benchmark's slow-io), and each flip would cut again. Nor
 * do they stop growth then: the baseline follows the fast page's median down, the mix's median
 * reads several times it, and a full limit held there with the CPU idle would turn the slow page
 * away for nothing. It grows by {@code sqrt(L)} a window there, not by half: the verdict may be
 * wrong (a check is one window of a few dozen calls), and each window of growth on a queue adds to
 * it. A slower dependency's latency does not grow with the calls let through to it, and a queue's
 * does: when the slow tail rises by half ({@link #TAIL_ROSE}) from what it was when the dependency
 * was found, the calls queue behind this limit after all (for a connection pool, for a database
 * with its CPU busy: the application's own CPU idles while its pages wait), so the dependency is
 * forgotten, the baseline goes back to what it was, and the rise is judged as any other. Without
 * that, growth on a full limit runs on to {@code max-limit} while every call waits longer for a
 * connection (the petclinic benchmark's open loop).
 *
 * <p><b>Cost.</b> A few fields and arithmetic per window.
 */
final class SlowerDependency {
  /** How long latency rises with the CPU below target do not cut once a dependency was found. */
  static final long MEMORY_NANOS = 10_000_000_000L;

  /** Cuts are checked once, together, they brought the limit to this share of where they began. */
  static final double CHECKED_AT = 0.75;

  /** The slow tail did not fall with the cut: it kept at least this share of what it was. */
  static final double TAIL_KEPT = 0.9;

  /**
   * While a dependency is remembered, the slow tail rose by half since it was found: the calls let
   * through queue here after all. Well beyond the fifth by which a window's p90 moves by chance,
   * and short of doubling, which lets the growth on a full limit run on to several times what the
   * queue's server (a pool, a database) takes.
   */
  static final double TAIL_ROSE = 1.5;

  /**
   * The slow tail rose by a quarter with fewer calls in flight: beyond the fifth by which a
   * window's p90 moves by chance, so the server behind the limit slowed between the two windows
   * (its own rate fell: a database sharing its CPU for a moment). That says nothing about a slower
   * dependency, whose latency holds steady, and the cut stands.
   */
  static final double TAIL_SLOWED = 1.25;

  /** A CPU that moved less than this between the cut's window and the next did not rise. */
  static final double CPU_NOISE = 0.02;

  /** The estimate before the first of the cuts not yet checked; 0 when there is none. */
  private double cutsFrom;

  /** The slow tail and the CPU of the window that made the last cut. */
  private long cutP90;

  private double cutCpu;

  /** The calls in flight when the first of the cuts was made; 0 if the limit did not hold them. */
  private int cutInFlight;

  /**
   * While a cut is checked: how many of the calls in flight when it was made may not have completed
   * yet (0 or less: all have), and how long the check has waited for them.
   */
  private long admittedBefore;

  private long waitedNanos;

  /** Time left during which a latency rise with the CPU below target does not cut. */
  private long rememberedNanos;

  /** The slow tail (p90) of the window that judged the checked cuts ({@link #found}). */
  private long judgedP90;

  /** The slow tail (p90) when the slower dependency was found. */
  private long foundP90;

  /** The baseline before the slower dependency was found, for when growth shows it was not one. */
  private long baselineBefore;

  /** The limit grew, drifted or was judged with the CPU above target: the cuts are behind. */
  void cutsBehind() {
    cutsFrom = 0;
  }

  /**
   * A cut on a latency rise, from {@code before} to {@code after}; {@code full}: every permit was
   * taken in the window that made it. Returns the limit to check the cuts from (and go back to if
   * they find a slower dependency) once, together since the first of them, they took a quarter of
   * it; otherwise 0. A window's slow tail moves by more than a smaller cut would change it, so
   * checking one would find a slower dependency by chance.
   */
  double cut(WindowSample w, double before, double after, boolean full) {
    if (cutsFrom == 0) {
      cutsFrom = before;
      cutInFlight = full ? w.maxInFlight() : 0;
    }
    cutP90 = w.percentileRttNanos(0.9);
    cutCpu = w.cpu();
    if (after > cutsFrom * CHECKED_AT) {
      return 0;
    }
    double from = cutsFrom;
    cutsFrom = 0;
    admittedBefore = w.maxInFlight();
    waitedNanos = 0;
    return from;
  }

  /**
   * A window while a cut is checked: whether the check must wait for one whose calls were all
   * admitted after the cut. The calls admitted before it, at the old limit, waited in the old
   * queue; judged by their latency, a queue that takes a while to drain (a connection pool's, a
   * database's) looks like a slower dependency, and the baseline would learn the queue. So the
   * check waits until as many calls completed as were in flight at the cut, then judges the window
   * after; at most {@link #MEMORY_NANOS}, for calls that never complete.
   */
  boolean waitForLaterCalls(WindowSample w, int currentLimit) {
    boolean drained = admittedBefore <= 0;
    admittedBefore -= w.samples() + w.drops();
    waitedNanos += w.windowNanos();
    return waitedNanos < MEMORY_NANOS && (!drained || w.maxInFlight() > currentLimit);
  }

  /**
   * The window that judges the checked cuts: fewer calls in flight, same latency means no queue
   * behind this limit but a slower dependency. The tail, not the median: with fewer slow calls
   * admitted, the fast ones may become the median of a mixed service while the slow ones take as
   * long as before. The same, not more: by Little's law a tail as long with fewer calls in flight
   * means fewer calls completing, which is a slower dependency's mark and also a server that slowed
   * by itself; a tail that rose beyond a window's noise ({@link #TAIL_SLOWED}) is only the second.
   */
  boolean found(WindowSample w, WindowReading now) {
    boolean cpuRose = w.cpu() > cutCpu + CPU_NOISE;
    long p90 = w.percentileRttNanos(0.9);
    judgedP90 = p90;
    boolean fewer = cutInFlight == 0 || w.maxInFlight() <= cutInFlight * CHECKED_AT;
    return now.latencyKnown
        && !now.cpuHot
        && !cpuRose
        && now.dropsTolerated
        && fewer
        && p90 >= cutP90 * TAIL_KEPT
        && p90 <= cutP90 * TAIL_SLOWED;
  }

  /** Why the checked cuts stand, for the trace, when the window that judged them found none. */
  String cutKept() {
    return judgedP90 > cutP90 * TAIL_SLOWED
        ? "the slow tail rose with fewer calls in flight: the server slowed; the cut kept"
        : "the cut shortened the slow tail: kept";
  }

  /** Remembers the dependency {@link #found}, and {@code baselineNanos}, the baseline before it. */
  void remember(long baselineNanos) {
    baselineBefore = baselineNanos;
    rememberedNanos = MEMORY_NANOS;
    foundP90 = judgedP90;
  }

  /**
   * Why a dependency remembered was a queue after all, or null while nothing says so. The slow tail
   * rose to {@link #TAIL_ROSE} times what it was when it was found: a slower dependency's latency
   * does not grow with the calls let through, a queue's does (a pool, a database behind it), so the
   * calls the limit grew to let in queue here. Or the worker threads held the calls back ({@link
   * WindowSample#threadBound}): the calls wait in front of them, where the tail cannot show it.
   */
  String undone(WindowSample w, boolean latencyKnown) {
    if (rememberedNanos == 0) {
      return null;
    }
    if (latencyKnown && w.percentileRttNanos(0.9) > foundP90 * TAIL_ROSE) {
      return "the slow tail rose with the limit: not a slower dependency after all; baseline back";
    }
    if (w.threadBound()) {
      return "the threads hold the calls back: a queue, not a slower dependency; baseline back";
    }
    return null;
  }

  /** Forgets the dependency; returns the baseline from before it was found. */
  long forget() {
    rememberedNanos = 0;
    return baselineBefore;
  }

  /** A steady window of {@code windowNanos} passed; whether the dependency is still remembered. */
  boolean remembered(long windowNanos) {
    rememberedNanos = Math.max(0, rememberedNanos - windowNanos);
    return rememberedNanos > 0;
  }

  /** How long the dependency stays remembered; 0 when none is. */
  long rememberedNanos() {
    return rememberedNanos;
  }
}
