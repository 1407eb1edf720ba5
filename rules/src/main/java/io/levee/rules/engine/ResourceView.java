package io.levee.rules.engine;

import io.levee.bootstrap.Blocked;
import io.levee.rules.model.Mode;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The live counters and gauges of one resource in force (or of the system rule, named {@code
 * system}), for metrics to read whenever they like; {@link Engine#status()} takes snapshots of
 * them. A resource that a reload leaves unchanged keeps its view, so its counters keep counting.
 *
 * <p>An admitted call costs at most three adder increments: {@code passed} when admitted, its
 * outcome and its duration (only when the engine keeps durations) when completed. In flight is
 * derived ({@code passed} minus completed) rather than counted up and down, which would cost two
 * more. A view whose concurrency or adaptive limit counts its calls in flight anyway ({@link
 * #limitInFlight}) derives {@code passed} the other way round, completed plus in flight, and saves
 * the admission's increment.
 *
 * <p>Concurrency: the counters are {@link LongAdder}s written by every call; reads are sums and may
 * miss calls that are being counted at that instant. A derived {@code passed} reads completed
 * before in flight, and a completion frees its slot before it is counted, so a read never counts a
 * call twice, but may miss one that is between the two, or count one that holds a permit a later
 * policy is about to refuse it; {@link #passed()} returns the highest value it has returned, so
 * that a counter read from it never goes down.
 */
public abstract class ResourceView {
  private final String name;
  private final String kind;
  private final Mode mode;
  private final boolean passedDerived;
  private final boolean keepsDurations;
  private final LongAdder passed = new LongAdder();
  private final AtomicLong passedRead = new AtomicLong();
  private final LongAdder[] blocked = adders(Reason.ALL.length);
  private final LongAdder[] wouldBlock = adders(Reason.ALL.length);
  private final LongAdder[] calls = adders(Outcome.ALL.length);
  private final LongAdder durationSum = new LongAdder();
  private final LongAdder staticFallbacks = new LongAdder();
  private final LongAdder lastGoodFallbacks = new LongAdder();

  /** Requests answered with backpressure: [0] enforce, [1] monitor (would have been). */
  private final LongAdder[] backpressured = adders(2);

  /**
   * {@code passedDerived}: {@link #limitInFlight} counts every admitted call that has not
   * completed, from its admission to its completion, so nothing counts {@code passed}. {@code
   * keepsDurations}: the engine keeps durations for the metrics, the only readers of {@link
   * #durationSumNanos}.
   */
  ResourceView(String name, String kind, Mode mode, boolean passedDerived, boolean keepsDurations) {
    this.name = name;
    this.kind = kind;
    this.mode = mode;
    this.passedDerived = passedDerived;
    this.keepsDurations = keepsDurations;
  }

  public final String name() {
    return name;
  }

  /** {@code servlet}, {@code http} or {@code jdbc}. */
  public final String kind() {
    return kind;
  }

  public final Mode mode() {
    return mode;
  }

  /** Calls let through (in monitor mode, also those that would have been blocked). */
  public final long passed() {
    if (!passedDerived) {
      return passed.sum();
    }
    long derived = completed() + limitInFlight();
    for (long read = passedRead.get(); ; read = passedRead.get()) {
      if (derived <= read) {
        return read;
      }
      if (passedRead.compareAndSet(read, derived)) {
        return derived;
      }
    }
  }

  /** Calls blocked for {@code reason} in enforce mode. */
  public final long blocked(Reason reason) {
    return blocked[reason.ordinal()].sum();
  }

  /** Calls that monitor mode let through although {@code reason} would have blocked them. */
  public final long wouldBlock(Reason reason) {
    return wouldBlock[reason.ordinal()].sum();
  }

  /**
   * Blocked http calls answered with a fallback: with the last good answer of their URL ({@code
   * lastGood}), or with the fallback of the rules.
   */
  public final long fallbacks(boolean lastGood) {
    return (lastGood ? lastGoodFallbacks : staticFallbacks).sum();
  }

  /**
   * Requests of this servlet resource (or {@code system}) that failed after Levee refused one of
   * their outbound calls and were answered as blocked ({@code backpressure}); with {@code monitor},
   * those that would have been.
   */
  public final long backpressured(boolean monitor) {
    return backpressured[monitor ? 1 : 0].sum();
  }

  /** Completed calls by outcome; ignored ones are counted under {@link Outcome#IGNORED} only. */
  public final long calls(Outcome outcome) {
    return calls[outcome.ordinal()].sum();
  }

  /**
   * Sum of the durations of the calls counted as success, failure or slow, when the engine keeps
   * durations (the metrics are on); otherwise it stays 0.
   */
  public final long durationSumNanos() {
    return durationSum.sum();
  }

  /** Calls counted in {@link #durationSumNanos()}: every completed call not ignored. */
  public final long durationCount() {
    return calls(Outcome.SUCCESS) + calls(Outcome.FAILURE) + calls(Outcome.SLOW);
  }

  /** Calls admitted and not completed yet. */
  public final int inFlight() {
    if (passedDerived) {
      return limitInFlight();
    }
    // Completed first: both only grow, so passed read later is never below it.
    long completed = completed();
    return (int) Math.max(0, passed.sum() - completed);
  }

  /**
   * The calls in flight as the view's concurrency or adaptive limit counts them, when it was built
   * with {@code passedDerived}; otherwise never asked.
   */
  int limitInFlight() {
    return 0;
  }

  private long completed() {
    long completed = 0;
    for (LongAdder c : calls) {
      completed += c.sum();
    }
    return completed;
  }

  /**
   * The concurrency limit in force (adaptive, else fixed {@code max}), or -1 when there is none.
   */
  public abstract int limit();

  /** 0 closed, 1 open, 2 half-open, or -1 without a circuit breaker. */
  public abstract int breakerState();

  /**
   * While the breaker ramps calls back up after closing, the share its step admits now, in percent
   * (10, 25 or 50); otherwise 0, and 0 without a circuit breaker.
   */
  public int breakerRamp() {
    return 0;
  }

  /**
   * Whether the breaker is open past its open time, so the next call is a probe: it reads open only
   * because no call has arrived since. False without a circuit breaker.
   */
  public boolean breakerProbeDue() {
    return false;
  }

  /** Per-key buckets evicted so far; 0 without a per-key rate limit. */
  public abstract long keysEvicted();

  /** Whether its rate limit is shared by the cluster ({@code scope: cluster}). */
  public boolean clusterScoped() {
    return false;
  }

  /**
   * The instances the cluster last counted for its rate (the most over its keys); 0 before the
   * first settling, -1 when it is not {@link #clusterScoped()}.
   */
  public int clusterInstances() {
    return -1;
  }

  /** Last good answers kept now; 0 without {@code fallback.last-good}. */
  public abstract int lastGoodKept();

  final void countFallback(boolean lastGood) {
    (lastGood ? lastGoodFallbacks : staticFallbacks).increment();
  }

  /**
   * What a request of this view answers instead of the 5xx it ended with after {@code refused}
   * refused one of its calls, counted; null in monitor mode, which only counts.
   */
  final Blocked answerRefused(Blocked refused) {
    boolean monitor = mode == Mode.MONITOR;
    backpressured[monitor ? 1 : 0].increment();
    return monitor ? null : answers().backpressure(refused);
  }

  /** How this view answers blocked requests. */
  abstract BlockAnswers answers();

  final void countBlocked(Reason reason, boolean monitor) {
    (monitor ? wouldBlock : blocked)[reason.ordinal()].increment();
  }

  final void countAdmitted() {
    if (!passedDerived) {
      passed.increment();
    }
  }

  /** Exactly once per admitted call, which {@link #inFlight()} relies on. */
  final void countCompleted(Outcome outcome, long durationNanos) {
    calls[outcome.ordinal()].increment();
    if (keepsDurations && outcome != Outcome.IGNORED && durationNanos != 0) {
      durationSum.add(durationNanos);
    }
  }

  private static LongAdder[] adders(int n) {
    LongAdder[] adders = new LongAdder[n];
    for (int i = 0; i < n; i++) {
      adders[i] = new LongAdder();
    }
    return adders;
  }
}
