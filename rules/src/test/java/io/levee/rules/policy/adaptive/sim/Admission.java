package io.levee.rules.policy.adaptive.sim;

import io.levee.rules.model.AdaptiveSpec;
import io.levee.rules.model.Priority;
import io.levee.rules.policy.adaptive.AdaptiveLimiter;
import io.levee.rules.policy.adaptive.ManualCpu;
import io.levee.rules.time.ManualClock;
import java.util.Arrays;

/** What stands in front of the servlet in the simulated container, seeing every request. */
public interface Admission {
  boolean tryAcquire(long now);

  void release(long now, long rttNanos);

  /** {@link #tryAcquire(long)} for a request of page {@code cls} (0 for /cpu, 1 for /io). */
  default boolean tryAcquire(long now, int cls) {
    return tryAcquire(now);
  }

  /** {@link #release(long, long)} of a request of page {@code cls}. */
  default void release(long now, long rttNanos, int cls) {
    release(now, rttNanos);
  }

  /** {@link #tryAcquire(long, int)} for a request of priority {@code priority}. */
  default boolean tryAcquire(long now, int cls, Priority priority) {
    return tryAcquire(now, cls);
  }

  /**
   * {@link #tryAcquire(long, int, Priority)} asked on worker thread {@code thread} (from 0), as a
   * caller that tells its threads apart asks.
   */
  default boolean tryAcquire(long now, int cls, Priority priority, int thread) {
    return tryAcquire(now, cls, priority);
  }

  /** {@link #release(long, long, int)} of a request of priority {@code priority}. */
  default void release(long now, long rttNanos, int cls, Priority priority) {
    release(now, rttNanos, cls);
  }

  /** The smoothed process CPU load, every 100 ms, as the agent's sampler reports it. */
  void cpu(long now, double load);

  /** The process CPU averaged over the last second, raw, as Sentinel samples it. */
  default void cpuLastSecond(long now, double load) {}

  int limit();

  /** A contender by name: a factory, since each run needs a fresh one. */
  record Contender(String name, java.util.function.Supplier<Admission> create) {}

  /** No protection at all. */
  static Admission none() {
    return new Admission() {
      @Override
      public boolean tryAcquire(long now) {
        return true;
      }

      @Override
      public void release(long now, long rttNanos) {}

      @Override
      public void cpu(long now, double load) {}

      @Override
      public int limit() {
        return Scenario.THREADS;
      }
    };
  }

  /**
   * Levee's {@link AdaptiveLimiter} as the agent builds it for the {@code system} rule, told of the
   * threads that ask as the agent tells it.
   */
  static Admission levee(AdaptiveSpec spec) {
    return levee(spec, AdaptiveLimiter::create);
  }

  interface LimiterFactory {
    AdaptiveLimiter create(AdaptiveSpec spec, ManualClock clock, ManualCpu cpu);
  }

  static Admission levee(AdaptiveSpec spec, LimiterFactory factory) {
    ManualClock clock = new ManualClock(0);
    ManualCpu cpu = new ManualCpu(0);
    AdaptiveLimiter limiter = factory.create(spec, clock, cpu);
    return new Admission() {
      /** Per thread, the limiter's window it last asked in (the agent's thread-local slot). */
      private int[] windows = new int[0];

      /** Per thread, how often it asked in that window. */
      private int[] asks = new int[0];

      @Override
      public boolean tryAcquire(long now) {
        return tryAcquire(now, 0);
      }

      @Override
      public boolean tryAcquire(long now, int cls, Priority priority, int thread) {
        advance(now);
        if (thread >= windows.length) {
          windows = Arrays.copyOf(windows, Math.max(thread + 1, windows.length * 2));
          asks = Arrays.copyOf(asks, windows.length);
        }
        if (windows[thread] != limiter.window()) {
          windows[thread] = limiter.window();
          asks[thread] = 0;
        }
        limiter.threadAsked(++asks[thread]);
        return limiter.tryAcquire(now, cls, priority);
      }

      @Override
      public boolean tryAcquire(long now, int cls) {
        return tryAcquire(now, cls, Priority.NORMAL);
      }

      @Override
      public boolean tryAcquire(long now, int cls, Priority priority) {
        advance(now);
        return limiter.tryAcquire(now, cls, priority);
      }

      @Override
      public void release(long now, long rttNanos) {
        release(now, rttNanos, 0);
      }

      @Override
      public void release(long now, long rttNanos, int cls) {
        release(now, rttNanos, cls, Priority.NORMAL);
      }

      @Override
      public void release(long now, long rttNanos, int cls, Priority priority) {
        advance(now);
        limiter.release(now, rttNanos, false, cls, priority);
      }

      @Override
      public void cpu(long now, double load) {
        cpu.set(load);
      }

      @Override
      public int limit() {
        return limiter.limit();
      }

      private void advance(long now) {
        clock.advanceNanos(now - clock.nanoTime());
      }
    };
  }

  /** A fixed concurrency limit (a semaphore bulkhead without waiting). */
  static Admission fixed(int max) {
    return new Admission() {
      private int inFlight;

      @Override
      public boolean tryAcquire(long now) {
        if (inFlight >= max) {
          return false;
        }
        inFlight++;
        return true;
      }

      @Override
      public void release(long now, long rttNanos) {
        inFlight--;
      }

      @Override
      public void cpu(long now, double load) {}

      @Override
      public int limit() {
        return max;
      }
    };
  }

  /**
   * Sentinel's system rule with {@code highestCpuUsage}: every inbound entry is blocked while the
   * CPU usage sampled once a second is above the threshold.
   */
  static Admission sentinelCpu(double threshold) {
    return new Admission() {
      private double lastSecond;

      @Override
      public boolean tryAcquire(long now) {
        return lastSecond <= threshold;
      }

      @Override
      public void release(long now, long rttNanos) {}

      @Override
      public void cpu(long now, double load) {}

      @Override
      public void cpuLastSecond(long now, double load) {
        lastSecond = load;
      }

      @Override
      public int limit() {
        return lastSecond <= threshold ? Scenario.THREADS : 0;
      }
    };
  }
}
