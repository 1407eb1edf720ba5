package io.levee.rules.policy;

import io.levee.rules.model.CircuitBreakerSpec;
import io.levee.rules.policy.BreakerState.Closed;
import io.levee.rules.policy.BreakerState.HalfOpen;
import io.levee.rules.policy.BreakerState.Open;
import io.levee.rules.time.Clock;
import io.levee.rules.time.Durations;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The {@code circuit-breaker:} of SPEC §2: closed → open → half-open → closed (or open again).
 *
 * <p>Closed: outcomes go into a {@link RollingWindow} of {@code window} in ten buckets. The breaker
 * opens on the completion that makes {@code calls ≥ minimum-calls} and {@code failures/calls ≥
 * failure-rate}, or (with {@code slow-call} set) {@code slow/calls ≥ slow-call-rate}: at the
 * threshold, never one call before.
 *
 * <p>Open: every call is rejected with the nanos left until a probe may pass (Retry-After). The
 * duration is {@link OpenBackoff}: {@code open-for}, doubled with jitter per consecutive open up to
 * {@code open-for-max}. The count of consecutive opens resets once the breaker has stayed closed a
 * whole {@code window} after its ramp. Nothing runs in the background: the first call after the
 * wait moves the breaker to half-open.
 *
 * <p>Half-open: exactly {@code half-open-calls} probes are admitted, the rest rejected. One failed
 * or slow probe re-opens it (one more consecutive open, so longer); when all have succeeded it
 * closes. If they have not all reported {@code open-for} after it went half-open (hung calls), the
 * next call re-opens it, so it never sticks (Resilience4j #935).
 *
 * <p>Ramp: after closing, admitted traffic climbs over three steps of one bucket width (window/10,
 * 1 s by default): 10 %, 25 %, 50 % of calls, then all (Hystrix and Resilience4j release full
 * traffic at once, the stampede the ramp avoids). Calls are picked by arrival count, evenly spaced
 * (at 25 %, the first of every four); the rest are rejected like an open breaker, with the nanos to
 * the next step. The window is fresh since closing and trips as it does closed: only once {@code
 * minimum-calls} calls have completed in it, the ramp's and those after it alike. A relapse during
 * the ramp or within a {@code window} after it counts as a consecutive open (longer back-off). The
 * ramp does not re-open on fewer calls (say {@code half-open-calls}, to catch a relapse sooner at
 * low traffic): {@code minimum-calls} is the fewest a rule lets the breaker decide on, users read
 * it so, and the probes have just shown the dependency answering.
 *
 * <p>Stale completions: {@link #onComplete} carries no ticket, so each state credits only calls
 * that started ({@code now − duration}, on this same clock) at or after its {@code countFrom}: the
 * instant of the last open. Calls admitted before a trip that finish while half-open are not taken
 * for probes, and hung probes of an earlier half-open count for nothing later. Completions while
 * open are ignored.
 *
 * <p>Status: {@link #rampPercent} and {@link #probeDue} say what {@link #state} alone hides: a
 * closed breaker still refusing most calls, and an open one whose time is up but that reads open
 * until a call arrives to probe. They read the clock; no call path uses them.
 *
 * <p>Cost: the hot methods take {@code now} from the caller, who reads the clock once per decision
 * and once per completion. Closed and past the ramp, {@link #tryAcquire} is a volatile read and two
 * field reads; {@link #onComplete} adds to the window and sums it (40 reads). Nothing allocates
 * except a transition, which makes the new state and the reason text (the text on closing is made
 * once, with the breaker).
 *
 * <p>Concurrency: the state is one {@link AtomicReference} to a {@link BreakerState}; every
 * transition is a CAS from the state the deciding thread read, so exactly one thread moves the
 * breaker and notifies the listener, and the others carry on with the state they find. Counters
 * inside a state are atomics; a completion racing with a transition lands in the old state's
 * counters and is lost with it.
 */
public final class CircuitBreaker {
  public static final int CLOSED = BreakerState.CLOSED;
  public static final int OPEN = BreakerState.OPEN;
  public static final int HALF_OPEN = BreakerState.HALF_OPEN;

  /** Admitted share of calls, per mille, for each ramp step after closing. */
  private static final int[] RAMP_PERMILLE = {100, 250, 500};

  /** Jitter for the open time from the calling thread's {@link ThreadLocalRandom}. */
  private static final LongSupplier THREAD_RANDOM =
      new LongSupplier() {
        @Override
        public long getAsLong() {
          return ThreadLocalRandom.current().nextLong();
        }
      };

  /** Told of every transition, by the thread that made it. */
  public interface Listener {
    void onTransition(int from, int to, String why);
  }

  private final CircuitBreakerSpec spec;
  private final Clock clock;
  private final LongSupplier random;
  private final long openFor;
  private final int halfOpenCalls;
  private final int minimumCalls;
  private final double slowRate;
  private final long rampStepNanos;
  private final String closedWhy;
  private final AtomicReference<BreakerState> state;
  private volatile Listener listener;

  /** A breaker whose open time is jittered by {@link ThreadLocalRandom}. */
  public CircuitBreaker(CircuitBreakerSpec spec, Clock clock) {
    this(spec, clock, THREAD_RANDOM);
  }

  /** {@code random}: the source of the open time's jitter ({@link OpenBackoff}). */
  public CircuitBreaker(CircuitBreakerSpec spec, Clock clock, LongSupplier random) {
    this.spec = spec;
    this.clock = clock;
    this.random = random;
    this.openFor = Math.max(1, spec.openForNanos);
    this.halfOpenCalls = Math.max(1, spec.halfOpenCalls);
    this.minimumCalls = Math.max(1, spec.minimumCalls);
    this.slowRate = spec.slowCallNanos > 0 ? spec.slowCallRate : Double.POSITIVE_INFINITY;
    this.rampStepNanos = Math.max(1, spec.windowNanos / RollingWindow.BUCKETS);
    this.closedWhy = closedWhy(rampStepNanos);
    long now = clock.nanoTime();
    this.state = new AtomicReference<>(new Closed(now, now, 0, now, true, spec.windowNanos));
  }

  /** {@link #tryAcquire(long)} at the clock's current instant. */
  public long tryAcquire() {
    return tryAcquire(clock.nanoTime());
  }

  /**
   * 0: admitted. Above 0: rejected, and nanos until a call may pass again. {@code now}: this
   * breaker's clock, read by the caller once for the whole decision.
   */
  public long tryAcquire(long now) {
    for (; ; ) {
      BreakerState s = state.get();
      if (s.kind == CLOSED) {
        Closed closed = (Closed) s;
        return closed.rampDone ? 0 : ramp(closed, now);
      }
      if (s.kind == OPEN) {
        Open open = (Open) s;
        long wait = open.until - now;
        if (wait > 0) {
          return wait;
        }
        transition(open, new HalfOpen(now, now + openFor, open), "open time elapsed");
        continue;
      }
      HalfOpen half = (HalfOpen) s;
      if (now - half.deadline >= 0) {
        reopen(half, now, "probes did not finish");
        continue;
      }
      if (half.takeProbe(halfOpenCalls)) {
        return 0;
      }
      return Math.max(1, half.deadline - now);
    }
  }

  /**
   * Gives back the probe of a call that started at {@code startNanos} (this breaker's clock) and
   * will not report: a later policy blocked it, or its outcome is ignored. Like {@link
   * #onComplete}, only a call that belongs to the current half-open holds one of its probes; one
   * admitted while closed, or a probe of an earlier half-open, gives back nothing.
   */
  public void releasePermission(long startNanos) {
    BreakerState s = state.get();
    if (s.kind == HALF_OPEN && s.counts(startNanos)) {
      ((HalfOpen) s).returnProbe();
    }
  }

  /** {@link #onComplete(long, long, boolean)} at the clock's current instant. */
  public void onComplete(long durationNanos, boolean failure) {
    onComplete(clock.nanoTime(), durationNanos, failure);
  }

  /**
   * The outcome of an admitted call that ended at {@code now}, after {@code durationNanos}, both on
   * this breaker's clock.
   */
  public void onComplete(long now, long durationNanos, boolean failure) {
    onComplete(now, durationNanos, failure, true);
  }

  /**
   * As {@link #onComplete(long, long, boolean)}; {@code admitted} false for a call this breaker
   * refused that ran anyway (monitor mode). It counts toward the closed window, being real traffic,
   * but is never taken for a probe: it held none, and a half-open breaker must decide on its own.
   */
  public void onComplete(long now, long durationNanos, boolean failure, boolean admitted) {
    BreakerState s = state.get();
    if (s.kind == OPEN || (!admitted && s.kind == HALF_OPEN)) {
      return;
    }
    if (!s.counts(now - durationNanos)) {
      return;
    }
    boolean slow = spec.slowCallNanos > 0 && durationNanos > spec.slowCallNanos;
    if (s.kind == CLOSED) {
      Closed closed = (Closed) s;
      closed.window.record(now, failure, slow);
      if (closed.window.reached(now, minimumCalls, spec.failureRate, slowRate)) {
        trip(closed, now);
      }
      return;
    }
    HalfOpen half = (HalfOpen) s;
    if (failure || slow) {
      reopen(half, now, failure ? "probe failed" : "probe was slow");
    } else if (half.good.incrementAndGet() >= halfOpenCalls) {
      long rampUntil = now + RAMP_PERMILLE.length * rampStepNanos;
      Closed closed =
          new Closed(now, rampUntil, half.opens, half.countFrom, false, spec.windowNanos);
      transition(half, closed, closedWhy);
    }
  }

  /** 0 closed, 1 open, 2 half-open (the {@code levee.breaker.state} values). */
  public int state() {
    return state.get().kind;
  }

  /** While open, the clock instant the first probe may pass; otherwise 0. */
  public long openUntilNanos() {
    BreakerState s = state.get();
    return s.kind == OPEN ? ((Open) s).until : 0;
  }

  /** Whether a recently closed breaker is still ramping traffic back up. */
  public boolean ramping() {
    return rampPercent() > 0;
  }

  /**
   * While a recently closed breaker ramps traffic back up, the share of calls its step admits now,
   * in percent: 10, 25 or 50. Otherwise 0 (also when it is not closed).
   */
  public int rampPercent() {
    BreakerState s = state.get();
    if (s.kind != CLOSED) {
      return 0;
    }
    Closed closed = (Closed) s;
    long now = clock.nanoTime();
    if (!ramping(closed, now)) {
      return 0;
    }
    long step = Math.max(0, now - closed.since) / rampStepNanos;
    return RAMP_PERMILLE[(int) Math.min(step, RAMP_PERMILLE.length - 1)] / 10;
  }

  /**
   * Whether the breaker is open past its open time: nothing runs in the background, so it reads
   * open until the next call arrives, which finds it half-open and is a probe.
   */
  public boolean probeDue() {
    BreakerState s = state.get();
    return s.kind == OPEN && clock.nanoTime() - ((Open) s).until >= 0;
  }

  public void setListener(Listener listener) {
    this.listener = listener;
  }

  private long ramp(Closed closed, long now) {
    // A caller reads the clock before it reads the state: another thread may have closed the
    // breaker at a later instant, so its call is in the ramp's first step, not before it.
    long elapsed = Math.max(0, now - closed.since);
    long step = elapsed / rampStepNanos;
    if (step >= RAMP_PERMILLE.length) {
      closed.rampDone = true;
      return 0;
    }
    long permille = RAMP_PERMILLE[(int) step];
    long n = closed.arrivals.getAndIncrement();
    if (n * permille % 1000 < permille) {
      return 0;
    }
    return Math.max(1, rampStepNanos - elapsed % rampStepNanos);
  }

  private static boolean ramping(Closed closed, long now) {
    return !closed.rampDone && now - closed.rampUntil < 0;
  }

  private void trip(Closed closed, long now) {
    boolean healthy = closed.opens == 0 || now - closed.rampUntil >= spec.windowNanos;
    int opens = healthy ? 1 : closed.opens + 1;
    long until = now + OpenBackoff.nanos(openFor, spec.openForMaxNanos, opens, random.getAsLong());
    transition(closed, new Open(now, until, opens), reason(closed.window, now));
  }

  private void reopen(HalfOpen half, long now, String why) {
    int opens = half.opens + 1;
    long until = now + OpenBackoff.nanos(openFor, spec.openForMaxNanos, opens, random.getAsLong());
    transition(half, new Open(now, until, opens), why);
  }

  private String reason(RollingWindow window, long now) {
    long calls = Math.max(1, window.calls(now));
    long failures = window.failures(now);
    long slow = window.slow(now);
    if (failures > 0 && (double) failures / calls >= spec.failureRate - 1e-9) {
      return "failure rate "
          + percent(failures, calls)
          + " over "
          + calls
          + " calls >= "
          + Math.round(spec.failureRate * 100)
          + "%";
    }
    return "slow-call rate "
        + percent(slow, calls)
        + " over "
        + calls
        + " calls >= "
        + Math.round(spec.slowCallRate * 100)
        + "%";
  }

  /** The reason given on closing, which says how the ramp lets calls back in. */
  private static String closedWhy(long stepNanos) {
    StringBuilder s = new StringBuilder("probes succeeded; ramping calls back up: ");
    for (int i = 0; i < RAMP_PERMILLE.length; i++) {
      s.append(i == 0 ? "" : i == RAMP_PERMILLE.length - 1 ? ", then " : ", ");
      s.append(RAMP_PERMILLE[i] / 10).append(" %");
    }
    s.append(" of calls for ").append(Durations.format(stepNanos)).append(" each, then all");
    return s.toString();
  }

  private static String percent(long part, long whole) {
    return Math.round(100.0 * part / whole) + "%";
  }

  private boolean transition(BreakerState from, BreakerState to, String why) {
    if (!BreakerState.legal(from.kind, to.kind)) {
      throw new IllegalStateException(
          "illegal breaker transition "
              + BreakerState.name(from.kind)
              + " -> "
              + BreakerState.name(to.kind));
    }
    if (!state.compareAndSet(from, to)) {
      return false;
    }
    Listener l = listener;
    if (l != null) {
      try {
        l.onTransition(from.kind, to.kind, why);
      } catch (RuntimeException e) {
        // A broken listener must not fail the call that happened to move the breaker.
      }
    }
    return true;
  }
}
