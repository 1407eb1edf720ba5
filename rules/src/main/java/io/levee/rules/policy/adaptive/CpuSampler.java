package io.levee.rules.policy.adaptive;

import io.levee.rules.time.Clock;
import java.io.Closeable;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.function.LongSupplier;

/**
 * The process CPU load, sampled by one daemon thread {@code levee-cpu} every 50 ms: the CPU time
 * the process used over the wall time that passed, divided by the processors the JVM may use,
 * smoothed by an exponential average with a time constant of 0.2 s and clamped to 0..1. The JDK
 * reads the process CPU time in 10 ms ticks, so one sample of one processor is ±20 %; the average
 * brings that under ±6 %. Fast matters more than smooth: with 0.5 s the load of a one-CPU server
 * that went from half to twice its capacity still read below 80 % half a second later, the limit
 * took the step for a slower dependency and cut without headroom (to 2, where the CPU idles between
 * calls).
 *
 * <p>One thread, because the JDK's {@code get*CpuLoad} keep process-global "previous tick"
 * counters: every caller resets the window of every other caller. Reading {@code getProcessCpuTime}
 * and differencing it ourselves has no such sharing. The bean comes from {@link
 * ManagementFactory#getOperatingSystemMXBean()}, which does not start the platform MBeanServer; on
 * a JVM without {@code com.sun.management} the load stays 0 (unknown), so the CPU guard never
 * engages.
 *
 * <p>The thread starts on the first {@link #cpuLoad()}, never in the constructor (premain must stay
 * light), and {@link #close()} stops it for good.
 *
 * <p>Concurrency: only the sampler thread writes {@code load} (volatile) and the previous readings;
 * any thread reads {@code load}. Starting and closing are guarded by {@code this}.
 */
public final class CpuSampler implements CpuSource, Closeable {
  static final long PERIOD_MILLIS = 50;
  static final double TAU_NANOS = 0.2e9;
  private static final LongSupplier UNKNOWN_CPU_TIME =
      new LongSupplier() {
        @Override
        public long getAsLong() {
          return -1;
        }
      };

  private final Clock clock;
  private LongSupplier processCpuNanos;
  private volatile double load;
  private volatile boolean started;
  private boolean closed;
  private Thread thread;
  private long lastCpuNanos = -1;
  private long lastWallNanos;

  /** Reads the JVM's own process CPU time, resolved on the sampler thread when it starts. */
  public CpuSampler() {
    this(null, Clock.SYSTEM);
  }

  /** {@code processCpuNanos} returns a negative value when the CPU time is unknown. */
  CpuSampler(LongSupplier processCpuNanos, Clock clock) {
    this.processCpuNanos = processCpuNanos;
    this.clock = clock;
  }

  @Override
  public double cpuLoad() {
    if (!started) {
      start();
    }
    return load;
  }

  /** The current smoothed load, without starting the thread. */
  double sampleLoad() {
    return load;
  }

  @Override
  public synchronized void close() {
    closed = true;
    started = true;
    if (thread != null) {
      thread.interrupt();
      thread = null;
    }
  }

  private synchronized void start() {
    if (started) {
      return;
    }
    started = true;
    Thread t = new Thread(new Loop(), "levee-cpu");
    t.setDaemon(true);
    t.setContextClassLoader(null);
    thread = t;
    t.start();
  }

  /** The sampler thread, null before the first read and after {@link #close()}. */
  synchronized Thread thread() {
    return thread;
  }

  private synchronized boolean running() {
    return !closed;
  }

  /** Takes one reading; the sampler thread calls it every period, tests call it directly. */
  void sampleOnce() {
    if (processCpuNanos == null) {
      processCpuNanos = jdkProcessCpuTime();
    }
    long cpuNanos = processCpuNanos.getAsLong();
    long wallNanos = clock.nanoTime();
    if (cpuNanos < 0) {
      return;
    }
    if (lastCpuNanos >= 0 && wallNanos > lastWallNanos) {
      long wall = wallNanos - lastWallNanos;
      int processors = Math.max(1, Runtime.getRuntime().availableProcessors());
      double raw = (double) (cpuNanos - lastCpuNanos) / wall / processors;
      raw = Math.min(1, Math.max(0, raw));
      double alpha = 1 - Math.exp(-wall / TAU_NANOS);
      load = Math.min(1, Math.max(0, load + alpha * (raw - load)));
    }
    lastCpuNanos = cpuNanos;
    lastWallNanos = wallNanos;
  }

  private static LongSupplier jdkProcessCpuTime() {
    try {
      OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
      if (os instanceof com.sun.management.OperatingSystemMXBean) {
        final com.sun.management.OperatingSystemMXBean bean =
            (com.sun.management.OperatingSystemMXBean) os;
        return new LongSupplier() {
          @Override
          public long getAsLong() {
            return bean.getProcessCpuTime();
          }
        };
      }
    } catch (Throwable unavailable) {
      // A JVM without the management module or the bean: the load stays unknown (0).
    }
    return UNKNOWN_CPU_TIME;
  }

  private final class Loop implements Runnable {
    @Override
    public void run() {
      try {
        while (running()) {
          sampleOnce();
          Thread.sleep(PERIOD_MILLIS);
        }
      } catch (InterruptedException closing) {
        // close() interrupts the sleep; the thread ends.
      } catch (Throwable broken) {
        // Fail open: a sampler that cannot read reports unknown, so no limit stays cut by it.
        load = 0;
      }
    }
  }
}
