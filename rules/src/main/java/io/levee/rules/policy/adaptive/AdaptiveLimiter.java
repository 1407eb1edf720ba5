package io.levee.rules.policy.adaptive;

import io.levee.rules.model.AdaptiveSpec;
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
 * <p>Concurrency: {@code inFlight} is CAS-incremented against the volatile {@code limit} and
 * decremented on release; the limit may be lowered below {@code inFlight}, which then drains. Any
 * thread records completions into the lock-free {@link WindowRecorder}. The thread whose release (or
 * rejected acquire) sees the window expired wins the CAS on {@code closing} and alone drains the
 * recorder, runs the algorithm, writes {@code limit} and {@code windowStart}, then clears
 * {@code closing}; that volatile write and the next winner's CAS order the algorithm's own state
 * between windows. Readers may see the previous limit for the duration of one close.
 */
public final class AdaptiveLimiter {
  static final long MIN_WINDOW_NANOS = 50_000_000L;
  static final long MAX_WINDOW_NANOS = 1_000_000_000L;
  static final int MIN_EVENTS = 40;

  private final AdaptiveSpec spec;
  private final Clock clock;
  private final CpuSource cpu;
  private final LimitAlgorithm algorithm;
  private final WindowRecorder recorder = new WindowRecorder();
  private final WindowSample sample = new WindowSample();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger closing = new AtomicInteger();
  private volatile int limit;
  private volatile long windowStart;
  private volatile long windowNanos = MIN_WINDOW_NANOS;

  public AdaptiveLimiter(AdaptiveSpec spec, Clock clock, CpuSource cpu, LimitAlgorithm algorithm) {
    this.spec = spec;
    this.clock = clock;
    this.cpu = cpu;
    this.algorithm = algorithm;
    this.limit = clamp(spec.initialLimit);
    this.windowStart = clock.nanoTime();
  }

  /** An adaptive limiter with the default algorithm, {@link GradientCpuLimit}. */
  public static AdaptiveLimiter create(AdaptiveSpec spec, Clock clock, CpuSource cpu) {
    return new AdaptiveLimiter(spec, clock, cpu, new GradientCpuLimit(spec));
  }

  /** {@link #tryAcquire(long)} at the clock's current instant. */
  public boolean tryAcquire() {
    return tryAcquire(clock.nanoTime());
  }

  /**
   * Takes a permit if fewer than {@link #limit()} calls are in flight. {@code now} (this limiter's
   * clock) is only used to close an expired window when the call is rejected.
   */
  public boolean tryAcquire(long now) {
    for (; ; ) {
      int current = inFlight.get();
      if (current >= limit) {
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
    int now = inFlight.incrementAndGet();
    recorder.inFlight(now);
    return now <= limit;
  }

  /** {@link #release(long, long, boolean)} at the clock's current instant. */
  public void release(long rttNanos, boolean dropped) {
    release(clock.nanoTime(), rttNanos, dropped);
  }

  /**
   * Returns the permit of a call that ended at {@code now} (this limiter's clock). {@code
   * dropped}: the call failed or timed out, which counts as congestion; calls that Levee rejected
   * or whose outcome is ignored must not be released here with a sample (use {@link
   * #releaseWithoutSample()}).
   */
  public void release(long now, long rttNanos, boolean dropped) {
    inFlight.decrementAndGet();
    recorder.record(rttNanos, dropped);
    maybeCloseWindow(now);
  }

  /** Returns a permit without teaching the algorithm anything (an ignored outcome). */
  public void releaseWithoutSample() {
    inFlight.decrementAndGet();
  }

  public int limit() {
    return limit;
  }

  public int inFlight() {
    return inFlight.get();
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
    recorder.drainTo(sample, inFlight.get());
    sample.setCpu(cpu.cpuLoad(), spec.cpuTarget).setWindowNanos(elapsed);
    limit = clamp(algorithm.nextLimit(sample, limit));
    long median = sample.percentileRttNanos(0.5);
    windowNanos = Math.min(MAX_WINDOW_NANOS, Math.max(MIN_WINDOW_NANOS, 2 * median));
    windowStart = now;
  }

  private int clamp(int value) {
    return Math.min(spec.maxLimit, Math.max(spec.minLimit, value));
  }
}
