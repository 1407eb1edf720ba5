package io.levee.rules.policy.adaptive;

import static io.levee.rules.policy.adaptive.GradientCpuLimit.HEADROOM;

/**
 * Whether the calls that keep a limit full are a bounded crowd or an open stream; for {@link
 * GradientCpuLimit}, started while the CPU is below target.
 *
 * <p><b>Why.</b> A limit full of calls whose latency has risen reads the same in two loads that
 * want opposite answers. In an open stream (more requests arrive than complete, whoever sends them)
 * the queue grows for as long as the limit lets it, and the limit must hold it short. In a closed
 * loop (a fixed set of clients, each sending its next request when the last is answered: a load
 * balancer's connections, a batch of workers, wrk) the queue can never hold more than the clients,
 * and a limit below them gains nothing: every client turned away sends again at once, so the same
 * work waits, only now as refusals that cost the server and the client their CPU. Nothing in one
 * window tells the two apart; only letting more in does: a crowd stops at its size, a stream fills
 * any limit.
 *
 * <p>Something else stops a stream too: the container's worker threads, when there are fewer than
 * the raised limit (the rest of the stream then waits in the container's queue, out of the limit's
 * sight). What only a crowd does is come back: a client turned away sends again at once, so in the
 * windows before the probe each of the calls the probe let in was turned away many times for each
 * time an admitted call completed, where a stream's are turned away about as often as the calls it
 * sends beyond what completes. A stop counts as a crowd only if the calls found above the old limit
 * were turned away at least {@link #RETURNS} times as often, each, as the admitted calls completed,
 * each.
 *
 * <p>That test fails when the threads are few and the stream heavy: each thread then turns one
 * queued request away after another, as often as a client of a crowd that sends again at once, and
 * T threads that take from an endless queue are, to the limit, a closed loop of T clients with no
 * time between requests. What tells them apart is which threads ask. A thread that serves a crowd's
 * call is free again until the client's next request comes, and a pool that hands work to the
 * thread that has waited longest (a {@code ThreadPoolExecutor}'s, Tomcat's) gives that request to
 * another thread: in a window the calls of a crowd come from many more threads than are in flight
 * at once. A stream held back by the threads keeps every one of them busy, each taking the next
 * request from the queue as it finishes: the threads that ask are the threads in flight, the same
 * ones window after window. So where the caller counts the threads ({@link
 * WindowSample#threads()}), a stop counts as a crowd only if the calls of the probe and of the
 * window before it came from at least two threads more than the stop (the limiter counts each
 * thread once over those windows: {@link LimitAlgorithm#countsThreadsOn}); a stream held back by
 * its threads has them all in flight at once, give or take one. One window is not enough: it lasts
 * about twice the latency, so a crowd's calls in it come from not many more threads than it has in
 * flight. A pool that keeps giving work to the same few threads, a thread per connection, or a pool
 * that grew only as far as the crowd (Tomcat makes threads as it needs them, so a crowd that set
 * its size finds only a few more) makes a crowd look like such a stream: it is then taken for one,
 * and refused as before the probe, which costs the crowd its refusals but never lets a queue grow.
 * Where the threads are counted, the returns test asks less ({@link #RETURNS_THREADS_COUNTED}): the
 * threads test already tells a stream held back by its threads, and a client that shares its CPU
 * with the server (a load generator on the same host, spinning on the refusals) comes back not much
 * faster than an admitted call completes. What is left for the returns test there is a mild stream
 * whose calls level off for a window by chance: fewer of its calls are turned away than complete,
 * spread over all the calls it put above the old limit.
 *
 * <p><b>What.</b> After {@code wait} of full windows that turned calls away and did not let the
 * limit grow (the latency risen, or near the knee) with the CPU below target, the limit is raised
 * to {@code factor} times itself for a few windows. A window whose calls were turned away below the
 * limit, its top kept for other classes of calls ({@link ClassReserve}), counts as full: a crowd
 * whose most asked pages hold more than their share stops there, up to an eighth below the limit,
 * and the probe then counts the crowd's calls above the calls in flight, not above the limit. The
 * same holds during the probe: calls turned away in the top eighth of the raised limit did not stop
 * by themselves, so the probe goes above them with the usual headroom ({@link
 * ClassReserve#limitAbove}), at most {@link #MAX_FACTOR} times the calls it started from, and
 * judges the next window; a stream takes up each raise, a crowd stops at its size. If the calls in
 * flight fill the raised limit, or are still growing when the probe's windows run out, the load is
 * a stream: the limit goes back, and the next probe comes after four times the wait and goes twice
 * as high (up to {@link #MAX_FACTOR}): under a long overload the probes' cost (the extra calls they
 * let queue, which wait behind the others until the limit is back) shrinks with time, while a crowd
 * of up to four times the limit is found within a few seconds. A crowd further above the limit (a
 * burst taken for a stream cut it low, and at that limit the latency is already risen) would stay
 * out of reach of any factor, and waiting four seconds for the second probe costs such a crowd four
 * seconds of refusals each time it comes back after a pause; so where the threads are counted every
 * probe goes at least as high as the threads that asked in the window before, which a crowd's
 * clients, turned away one after another, keep all busy; but no higher than the largest crowd the
 * refusals before the probe could come from (one whose extra calls were each turned away {@link
 * #RETURNS_THREADS_COUNTED} times as often as an admitted call completed): the refusals of a stream
 * of less than twice what completes keep its first probe at twice the limit, and those of one of
 * less than four times its later ones at four times. If the calls stop below the raised limit (the
 * in flight of a window no higher than the window before, and no lower than {@link #PLATEAU} of it:
 * falling, the load is changing), the load is a crowd of that size: the limit stays above it with
 * the usual headroom, and while the calls in flight stay within the crowd a risen latency is that
 * crowd's own queue and does not cut, whatever the CPU: its clients turned away would come back at
 * once, and turning them away again and again takes more of the CPU than serving them in turn. More
 * in flight than the crowd plus its headroom, or fewer than half of it, ends it: the load has
 * changed, and the limit is judged as usual again. A window that uses less than half the limit ends
 * the escalation: the overload is over. Probes start only with the CPU below target: above it,
 * letting more in would make every call share the CPU with them. Once started, a CPU that rises
 * above target does not end one: a crowd that takes the CPU there when let in is still a crowd (its
 * clients turned away would keep the CPU as busy refusing them), and telling it takes two windows
 * after its calls stop growing, while a stream ends the probe as it fills the raised limit.
 *
 * <p><b>Cost.</b> A few fields and arithmetic per window; per call, only a refused one is counted
 * (a {@code LongAdder}, in the limiter's window), and per thread and window its first call (the
 * caller's count of threads).
 */
final class DemandProbe {
  /** Full windows that did not let the limit grow, before the first probe. */
  static final long FIRST_WAIT_NANOS = 1_000_000_000L;

  /** The highest probe, as a multiple of the limit it starts from. */
  static final double MAX_FACTOR = 4;

  /** How much longer the wait for the next probe is after one that found a stream. */
  static final long WAIT_GROWTH = 4;

  /** A crowd's calls in flight stay at least this share of the window before's. */
  static final double PLATEAU = 0.9;

  /** Windows a probe may last before a load still growing counts as a stream. */
  static final int MAX_WINDOWS = 6;

  /**
   * How much more often than an admitted call completes each of a crowd's extra calls must have
   * been turned away before the probe (see the class comment).
   */
  static final double RETURNS = 2;

  /**
   * {@link #RETURNS} where the threads are counted: the threads test already tells a stream held
   * back by them, so this one only has to tell a crowd from a mild stream's plateau.
   */
  static final double RETURNS_THREADS_COUNTED = 1;

  /** What a window of a probe showed. */
  enum Verdict {
    /** The calls filled the raised limit, or kept growing: a stream; back to the limit before. */
    STREAM,
    /** The calls stopped below the raised limit: a crowd of {@link #crowd()} calls. */
    CROWD,
    /** Still growing below the raised limit: one more window. */
    GROWING,
    /**
     * Turned away in the raised limit's top eighth, kept for other classes ({@link ClassReserve}):
     * one more window at {@link #raised()}, above them.
     */
    RAISED
  }

  private long waitNanos = FIRST_WAIT_NANOS;
  private long fullNanos;

  /** Calls turned away, and calls completed, in the full windows that led to this probe. */
  private long refused;

  private long completed;

  /** At the probe's start: the calls turned away before it, and completed per admitted call. */
  private double refusedBefore;

  private double completedPerCall;

  /** {@link #RETURNS}, or {@link #RETURNS_THREADS_COUNTED} when the probe counts threads. */
  private double returns = RETURNS;

  /**
   * The limit the probe started from, or the calls in flight where they were turned away below it.
   */
  private double from;

  private double factor = 2;
  private double height;

  /** The highest limit a probe may go to, and where it went above the reserve ({@link #raised}). */
  private int maxLimit;

  private int raised;
  private int windows;
  private int lastInFlight;

  /** The threads that asked in the window that started the probe and in the probe's windows. */
  private int threads;

  /** Why the last probe found a stream, for the trace. */
  private String why = "";

  /** Which bound set the last probe's height, for the trace. */
  private String howHigh = "";

  /** The size of the crowd found by the last probe; 0 when none is known. */
  private int crowd;

  /**
   * Whether {@code maxInFlight} calls are within the crowd the last probe found; more than the
   * crowd and its headroom, or fewer than half of it, forgets it.
   */
  boolean withinCrowd(int maxInFlight) {
    if (crowd > 0 && (maxInFlight > withHeadroom(crowd) || maxInFlight * 2 < crowd)) {
      crowd = 0; // more came, or most of the crowd left: whatever comes next is judged afresh
    }
    return crowd > 0;
  }

  int crowd() {
    return crowd;
  }

  /** The limit a crowd of {@link #crowd()} calls gets: all of it, with headroom. */
  double aboveCrowd() {
    return Math.max(height, withHeadroom(crowd));
  }

  /** {@code calls} and the usual headroom above them. */
  private static double withHeadroom(int calls) {
    return calls + HEADROOM * Math.sqrt(calls);
  }

  /** The limit a probe's window {@link Verdict#RAISED} goes to. */
  int raised() {
    return raised;
  }

  /**
   * A steady window was full and turned calls away, the CPU below target, and the regimes did not
   * let the limit grow. Returns the limit to probe with, or 0 when it is not yet time (or the limit
   * cannot go higher).
   */
  double due(WindowSample w, double estimate, int maxLimit) {
    fullNanos += fullFor(w);
    refused += w.refused();
    completed += w.samples() + w.drops();
    if (fullNanos < waitNanos || estimate >= maxLimit) {
      return 0;
    }
    // Calls turned away below the limit (its top kept for other classes) stopped where they were.
    from = Math.min(estimate, w.maxInFlight());
    refusedBefore = refused;
    completedPerCall = completed / Math.max(1, from);
    returns = w.threads() > 0 ? RETURNS_THREADS_COUNTED : RETURNS;
    fullNanos = 0;
    refused = 0;
    completed = 0;
    double byFactor = estimate * factor;
    double reach = reach(w.threads());
    height = Math.min(maxLimit, Math.max(byFactor, reach));
    howHigh = howHigh(reach > byFactor, w.threads(), maxLimit);
    this.maxLimit = maxLimit;
    windows = 0;
    lastInFlight = 0;
    threads = w.threads();
    return height;
  }

  /**
   * How high a probe goes at least: as high as the {@code threads} that asked (a crowd far above a
   * limit cut low is out of reach of any factor of it), but no higher than the largest crowd whose
   * returns could have made the refusals before it ({@link #cameBack}): above that, no stop could
   * count as a crowd, and a stream would only queue more.
   */
  private double reach(int threads) {
    if (threads == 0 || completedPerCall <= 0) {
      return 0;
    }
    return Math.min(threads, refusalsCrowd());
  }

  /** The largest crowd whose returns could have made the refusals before the probe. */
  private double refusalsCrowd() {
    return from + refusedBefore / (returns * completedPerCall);
  }

  /**
   * Which bound set the probe's height, for the trace: a crowd the probe stopped short of is told
   * apart by whether its threads or the refusals before the probe held it there.
   */
  private String howHigh(boolean reached, int threads, int maxLimit) {
    if (height >= maxLimit) {
      return "the highest limit";
    }
    String byFactor = (int) factor + "x the limit";
    if (threads == 0 || completedPerCall <= 0) {
      return byFactor + ", threads not counted";
    }
    int crowdCap = (int) refusalsCrowd();
    String counts = threads + " threads asked, the refusals before allow " + crowdCap;
    if (!reached) {
      return byFactor + "; " + counts;
    }
    return (threads <= crowdCap ? "as high as the threads" : "as high as the refusals allow")
        + "; "
        + counts;
  }

  /**
   * How long a full window was full. A window lasts about twice the median latency; one longer than
   * the first wait spans an idle stretch (the first after a pause), and was busy only for as long
   * as its calls kept its calls in flight busy: by Little's law, the calls times their mean latency
   * over the calls in flight, which a window full throughout reaches within a factor of two.
   */
  private static long fullFor(WindowSample w) {
    if (w.windowNanos() <= FIRST_WAIT_NANOS) {
      return w.windowNanos();
    }
    long calls = w.samples() + w.drops();
    long busy = 2 * calls * w.averageRttNanos() / Math.max(1, w.maxInFlight());
    return Math.min(busy, FIRST_WAIT_NANOS);
  }

  /** A window that used less than half the limit: whatever overload there was is over. */
  void quiet() {
    waitNanos = FIRST_WAIT_NANOS;
    factor = 2;
    turnedNoneAway();
  }

  /**
   * A window that turned no call away: the full windows counted so far, and their refusals, are no
   * longer those of the load that comes next. The escalation stays until the overload is over.
   */
  void turnedNoneAway() {
    fullNanos = 0;
    refused = 0;
    completed = 0;
  }

  /**
   * One window of the probe, which ran at {@link #due}'s limit or at {@link #raised()}; {@code
   * newThreads}: the threads that asked in it and not before in the probe, 0 when not counted;
   * {@code heldBelow}: calls were turned away below the limit, its top kept for other classes.
   */
  Verdict judge(int maxInFlight, int enforced, int newThreads, boolean heldBelow) {
    windows++;
    threads += newThreads;
    if (maxInFlight >= enforced) {
      return stream("the calls filled the raised limit, an open stream");
    }
    if (heldBelow && windows < MAX_WINDOWS) {
      // They did not stop by themselves: a crowd's most asked pages wait above its reserve. A
      // stream's take up each raise, up to the highest probe from where this one started.
      int above = ClassReserve.limitAbove((int) Math.ceil(withHeadroom(maxInFlight)));
      raised = (int) Math.min(Math.min(maxLimit, Math.max(height, MAX_FACTOR * from)), above);
      if (raised > enforced) {
        lastInFlight = maxInFlight;
        return Verdict.RAISED;
      }
    }
    if (windows >= 2 && maxInFlight < lastInFlight * PLATEAU) {
      return stream("the calls fell away during the probe: the load changed");
    }
    if (windows >= 2 && maxInFlight <= lastInFlight) {
      if (!cameBack(maxInFlight)) {
        return stream(
            "the calls stopped at "
                + maxInFlight
                + ", but those turned away before did not come back at once:"
                + " a stream held back elsewhere");
      }
      if (threads > 0 && threads <= maxInFlight + 1) {
        return stream(
            "the calls stopped at "
                + maxInFlight
                + ", but came from only "
                + threads
                + " threads, each taking the next at once:"
                + " a stream held back by the container's threads");
      }
      return found(maxInFlight);
    }
    if (windows >= MAX_WINDOWS) {
      return stream("the calls still grew when the probe ended, an open stream");
    }
    lastInFlight = maxInFlight;
    return Verdict.GROWING;
  }

  /**
   * Whether the {@code stop - from} calls found above the old limit were turned away, each, at
   * least {@link #returns} times as often as an admitted call completed.
   */
  private boolean cameBack(int stop) {
    double extra = stop - from;
    return extra > 0 && refusedBefore / extra >= returns * completedPerCall;
  }

  private Verdict found(int stop) {
    crowd = Math.max(1, stop);
    quiet();
    return Verdict.CROWD;
  }

  /** The last probe's start, and which bound set its height, in a few words. */
  String startWords() {
    return "probe: a higher limit (" + howHigh + "), to see whether the calls stop below it";
  }

  /** Why the last probe found a stream, in a few words. */
  String why() {
    return why;
  }

  /** The probe ends on {@code reason}, or without a verdict (calls failing): as a stream. */
  Verdict stream(String reason) {
    why = reason;
    waitNanos *= WAIT_GROWTH;
    factor = Math.min(MAX_FACTOR, factor * 2);
    return Verdict.STREAM;
  }
}
