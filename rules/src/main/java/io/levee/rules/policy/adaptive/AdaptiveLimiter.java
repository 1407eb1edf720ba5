package io.levee.rules.policy.adaptive;

import io.levee.rules.model.AdaptiveSpec;
import io.levee.rules.model.Priority;
import io.levee.rules.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Enforces the limit a {@link LimitAlgorithm} decides: at most {@link #limit()} calls in flight.
 * Completed calls are recorded into the current window; when the window is over, one thread
 * summarises it and asks the algorithm for the next limit.
 *
 * <p>A window lasts at least twice the last median latency, clamped to [50 ms, 1 s], and closes
 * once it is that old and holds {@link #MIN_EVENTS} completions, or once it is 1 s old, whatever it
 * holds. Low-traffic resources therefore get one decision a second on what little they saw.
 *
 * <p><b>Classes.</b> A caller may say which class a call belongs to (the {@code system} rule: the
 * page), one of {@link #CLASSES}; in the top eighth of the limit, a {@link ClassReserve} decides
 * which classes may still take a permit. Calls of one class only, the usual case of a resource's
 * limit, see the plain limit: a limiter made {@link #createForOneClass for one class} keeps no
 * count per class.
 *
 * <p><b>Priorities.</b> A limiter that tells classes apart also ranks calls by {@link Priority}
 * ({@link PriorityBands}): sheddable calls stop below the top of the limit, and lower while normal
 * calls are being refused; critical ones pass it until critical calls alone fill it. The class
 * reserve shares the limit among normal calls only. A limiter of one class takes every call as
 * normal.
 *
 * <p><b>Threads.</b> A caller that can tell its threads apart (the {@code system} rule) says how
 * often each thread has asked in a {@link #window()}; the counts of threads, and of threads that
 * asked again, let the algorithm tell a crowd of clients from an open stream that the container's
 * worker threads hold back ({@link DemandProbe}, {@link WindowSample#threadBound}). A window's
 * number changes as it closes, unless the algorithm {@link LimitAlgorithm#countsThreadsOn counts
 * threads on} into the next. A caller that does not count them leaves the count at 0, which means
 * unknown. A window that the worker threads held back ({@link WindowSample#threadBound}) with the
 * limit above them is given to the algorithm as run at a limit of the calls in flight: the threads
 * were the limit in force. A limit above the threads turns nothing away and never fills, so without
 * that the algorithm could not tell that its cuts changed nothing (and take the latency that did
 * not fall for a slower dependency), nor see the queue that the container holds.
 *
 * <p>Concurrency: {@code inFlight} is CAS-incremented against the volatile {@code limit} and
 * decremented on release; the limit may be lowered below {@code inFlight}, which then drains. Any
 * thread records completions into the lock-free {@link WindowRecorder}. The thread whose release
 * (or rejected acquire) sees the window expired wins the CAS on {@code closing} and alone drains
 * the recorder, runs the algorithm, writes {@code limit} and {@code windowStart}, then clears
 * {@code closing}; that volatile write and the next winner's CAS order the algorithm's own state
 * between windows. Readers may see the previous limit for the duration of one close. {@link
 * ClassReserve} and {@link PriorityBands} have their own notes.
 */
public final class AdaptiveLimiter {
  static final long MIN_WINDOW_NANOS = 50_000_000L;
  static final long MAX_WINDOW_NANOS = 1_000_000_000L;
  static final int MIN_EVENTS = 40;

  /** How many classes of calls a limiter tells apart; callers fold their classes into these. */
  public static final int CLASSES = 16;

  private final AdaptiveSpec spec;
  private final Clock clock;
  private final CpuSource cpu;
  private final LimitAlgorithm algorithm;
  private final WindowRecorder recorder = new WindowRecorder();
  private final WindowSample sample = new WindowSample();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger closing = new AtomicInteger();

  /** Null for a limiter of one class, which then skips the counting. */
  private final ClassReserve classes;

  /** Null for a limiter of one class, whose calls are all normal. */
  private final PriorityBands bands;

  private volatile int limit;
  private volatile long windowStart;
  private volatile long windowNanos = MIN_WINDOW_NANOS;

  /**
   * The number of the window now open, for the count of threads, from 1 (the windows an algorithm
   * counts threads on through share one): written by the thread that closes a window.
   */
  private volatile int window = 1;

  /** Whether the window now open counts every thread afresh: written by the closing thread. */
  private boolean freshCount = true;

  private volatile LimitTrace trace;

  /** A limiter that tells the classes of its calls apart. */
  public AdaptiveLimiter(AdaptiveSpec spec, Clock clock, CpuSource cpu, LimitAlgorithm algorithm) {
    this(spec, clock, cpu, algorithm, true);
  }

  private AdaptiveLimiter(
      AdaptiveSpec spec, Clock clock, CpuSource cpu, LimitAlgorithm algorithm, boolean byClass) {
    this.spec = spec;
    this.clock = clock;
    this.cpu = cpu;
    this.algorithm = algorithm;
    this.limit = clamp(spec.initialLimit);
    this.windowStart = clock.nanoTime();
    this.classes = byClass ? new ClassReserve(windowStart) : null;
    this.bands = byClass ? new PriorityBands(windowStart) : null;
  }

  /** A limiter with the default algorithm, {@link GradientCpuLimit}, telling classes apart. */
  public static AdaptiveLimiter create(AdaptiveSpec spec, Clock clock, CpuSource cpu) {
    return new AdaptiveLimiter(spec, clock, cpu, new GradientCpuLimit(spec));
  }

  /**
   * As {@link #create}, for calls that are all of one class (a resource's limit): the plain limit,
   * without counting calls per class.
   */
  public static AdaptiveLimiter createForOneClass(AdaptiveSpec spec, Clock clock, CpuSource cpu) {
    return new AdaptiveLimiter(spec, clock, cpu, new GradientCpuLimit(spec), false);
  }

  /** {@link #tryAcquire(long)} at the clock's current instant. */
  public boolean tryAcquire() {
    return tryAcquire(clock.nanoTime());
  }

  /** {@link #tryAcquire(long, int)} for a limiter whose calls are all of one class. */
  public boolean tryAcquire(long now) {
    return tryAcquire(now, 0);
  }

  /**
   * Takes a permit if fewer than {@link #limit()} calls are in flight and, in the top eighth of the
   * limit, if class {@code cls} (0 to {@link #CLASSES} - 1) may use it. {@code now} (this limiter's
   * clock) is only used to close an expired window when the call is rejected.
   */
  public boolean tryAcquire(long now, int cls) {
    for (; ; ) {
      int current = inFlight.get();
      if (!within(current, cls)) {
        if (bands != null) {
          bands.normalRefused(now);
        }
        recorder.refused(current < limit); // below: the top of the limit kept for other classes
        maybeCloseWindow(now);
        return false;
      }
      if (inFlight.compareAndSet(current, current + 1)) {
        admitted(cls, current + 1);
        return true;
      }
    }
  }

  /**
   * {@link #tryAcquire(long, int)} for a call of priority {@code priority}; a limiter of one class
   * takes every call as normal.
   */
  public boolean tryAcquire(long now, int cls, Priority priority) {
    if (priority == Priority.NORMAL || bands == null) {
      return tryAcquire(now, cls);
    }
    if (priority == Priority.CRITICAL) {
      int l = limit;
      if (!bands.tryTakeCritical(l)) {
        recorder.refused(false);
        maybeCloseWindow(now);
        return false;
      }
      // A critical call over the limit stands for the permit that comes free next: to the
      // algorithm the limit is full, not exceeded, so a cut is not held up waiting for a drain.
      recorder.inFlight(Math.min(inFlight.incrementAndGet(), l));
      return true;
    }
    for (; ; ) {
      int current = inFlight.get();
      if (current >= bands.sheddableCeiling(limit, classes.anySeen(), now, windowNanos)) {
        recorder.refused(false);
        maybeCloseWindow(now);
        return false;
      }
      if (inFlight.compareAndSet(current, current + 1)) {
        recorder.inFlight(current + 1);
        return true;
      }
    }
  }

  /**
   * Monitor mode: takes a permit whatever the limit, so in-flight stays truthful, and returns
   * whether it was within the limit.
   */
  public boolean acquireUnconditionally() {
    return acquireUnconditionally(0);
  }

  /** {@link #acquireUnconditionally()} for a call of class {@code cls}. */
  public boolean acquireUnconditionally(int cls) {
    int now = inFlight.incrementAndGet();
    boolean within = within(now - 1, cls);
    admitted(cls, now);
    return within;
  }

  /**
   * {@link #acquireUnconditionally(int)} for a call of priority {@code priority} at {@code now}
   * (this limiter's clock).
   */
  public boolean acquireUnconditionally(long now, int cls, Priority priority) {
    if (priority == Priority.NORMAL || bands == null) {
      boolean within = acquireUnconditionally(cls);
      if (!within && bands != null) {
        bands.normalRefused(now);
      }
      return within;
    }
    int l = limit;
    boolean within =
        priority == Priority.CRITICAL
            ? bands.takeCritical(l)
            : inFlight.get() < bands.sheddableCeiling(l, classes.anySeen(), now, windowNanos);
    recorder.inFlight(inFlight.incrementAndGet());
    return within;
  }

  private boolean within(int current, int cls) {
    int l = limit;
    return classes == null ? current < l : classes.admits(cls, current, l);
  }

  private void admitted(int cls, int inFlightNow) {
    recorder.inFlight(inFlightNow);
    if (classes != null) {
      classes.admitted(cls);
    }
  }

  /** {@link #release(long, long, boolean)} at the clock's current instant. */
  public void release(long rttNanos, boolean dropped) {
    release(clock.nanoTime(), rttNanos, dropped);
  }

  /** {@link #release(long, long, boolean, int)} of a call of class 0. */
  public void release(long now, long rttNanos, boolean dropped) {
    release(now, rttNanos, dropped, 0);
  }

  /**
   * Returns the permit of a call of class {@code cls} that ended at {@code now} (this limiter's
   * clock). {@code dropped}: the call failed or timed out, which counts as congestion; calls that
   * Levee rejected or whose outcome is ignored must not be released here with a sample (use {@link
   * #releaseWithoutSample(int)}).
   */
  public void release(long now, long rttNanos, boolean dropped, int cls) {
    release(now, rttNanos, dropped, cls, Priority.NORMAL);
  }

  /** {@link #release(long, long, boolean, int)} of a call taken with {@code priority}. */
  public void release(long now, long rttNanos, boolean dropped, int cls, Priority priority) {
    releasePermit(cls, priority);
    recorder.record(rttNanos, dropped);
    maybeCloseWindow(now);
  }

  /** Returns a permit of class 0 without teaching the algorithm anything (an ignored outcome). */
  public void releaseWithoutSample() {
    releaseWithoutSample(0);
  }

  /** Returns a permit of class {@code cls} without teaching the algorithm anything. */
  public void releaseWithoutSample(int cls) {
    releaseWithoutSample(cls, Priority.NORMAL);
  }

  /** {@link #releaseWithoutSample(int)} of a call taken with {@code priority}. */
  public void releaseWithoutSample(int cls, Priority priority) {
    releasePermit(cls, priority);
  }

  private void releasePermit(int cls, Priority priority) {
    if (classes != null) {
      if (priority == Priority.NORMAL) {
        classes.released(cls);
      } else if (priority == Priority.CRITICAL) {
        bands.releaseCritical();
      }
    }
    inFlight.decrementAndGet();
  }

  public int limit() {
    return limit;
  }

  /**
   * The window now open, as a number a caller keeps per thread to know whether the thread asks for
   * the first time in it: never 0.
   */
  public int window() {
    return window;
  }

  /**
   * A thread asks for the {@code nth} time (1, 2, ...) in the window now open, as its caller
   * counted by comparing {@link #window()} with the one it kept for the thread. A window closing in
   * between counts the thread in the next, at worst twice there, which skews one window by one
   * thread.
   */
  public void threadAsked(int nth) {
    if (nth == 1) {
      recorder.threadSeen();
    } else if (nth == 2) {
      recorder.threadSeenAgain();
    }
  }

  /** Who is told of every window from now on; null for no one. */
  public void setTrace(LimitTrace trace) {
    this.trace = trace;
  }

  public int inFlight() {
    return inFlight.get();
  }

  /** Critical calls in flight; 0 for a limiter of one class. */
  public int criticalInFlight() {
    return bands == null ? 0 : bands.criticalInFlight();
  }

  public AdaptiveSpec spec() {
    return spec;
  }

  private void maybeCloseWindow(long now) {
    long elapsed = now - windowStart;
    if (elapsed < windowNanos) {
      return;
    }
    if (elapsed < MAX_WINDOW_NANOS && recorder.events() < MIN_EVENTS) {
      return;
    }
    if (!closing.compareAndSet(0, 1)) {
      return;
    }
    try {
      elapsed = now - windowStart;
      if (elapsed >= windowNanos) {
        closeWindow(now, elapsed);
      }
    } finally {
      closing.set(0);
    }
  }

  private void closeWindow(long now, long elapsed) {
    recorder.drainTo(sample, inFlight.get(), freshCount, now);
    sample.setCpu(cpu.cpuLoad(), spec.cpuTarget).setWindowNanos(elapsed);
    int before = limit;
    int held = heldByThreads();
    limit = clamp(algorithm.nextLimit(sample, held > 0 ? held : limit));
    LimitTrace t = trace;
    if (t != null) {
      tell(t, before, held);
    }
    long median = sample.percentileRttNanos(0.5);
    windowNanos = Math.min(MAX_WINDOW_NANOS, Math.max(MIN_WINDOW_NANOS, 2 * median));
    windowStart = now;
    freshCount = !algorithm.countsThreadsOn();
    if (freshCount) {
      window = window == Integer.MAX_VALUE ? 1 : window + 1;
    }
    if (classes != null) {
      classes.windowClosed(now);
    }
  }

  /**
   * The calls in flight at most, when the worker threads held them back below the limit; else 0.
   */
  private int heldByThreads() {
    return sample.threadBound() && sample.maxInFlight() < limit ? sample.maxInFlight() : 0;
  }

  /** A trace that fails loses its line, never the call that closed the window. */
  private void tell(LimitTrace t, int before, int held) {
    try {
      if (t.tracing()) {
        String step = algorithm.lastStep();
        if (held > 0) {
          step += "; the calls held at " + held + " by as many threads: taken as the limit";
        }
        t.windowClosed(LimitTrace.line(before, limit, sample, step, algorithm.baselineNanos()));
      }
    } catch (RuntimeException ignored) {
      // The trace is for reading; the limit it describes is already in force.
    }
  }

  private int clamp(int value) {
    return Math.min(spec.maxLimit, Math.max(spec.minLimit, value));
  }
}
