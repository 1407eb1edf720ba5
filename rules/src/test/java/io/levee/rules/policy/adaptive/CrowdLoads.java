package io.levee.rules.policy.adaptive;

import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.MS;
import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.TARGET;
import static io.levee.rules.policy.adaptive.GradientCpuLimitTest.WINDOW;

/**
 * The loads {@link GradientCpuLimitCrowdTest} puts in front of {@link GradientCpuLimit}, window by
 * window: a closed loop of clients, an open stream held back by the container's threads.
 */
final class CrowdLoads {
  private CrowdLoads() {}

  /**
   * {@code clients} closed-loop clients of {@code workers} parallel workers: as many calls in
   * flight as the limit lets in, up to the clients, and latency grows with them past the workers.
   */
  static final class Crowd {
    final int clients;
    final int workers;
    final long serviceNanos;
    final double cpu;
    final long resendNanos;

    Crowd(int clients, int workers, long serviceNanos) {
      this(clients, workers, serviceNanos, 0.3);
    }

    Crowd(int clients, int workers, long serviceNanos, double cpu) {
      this(clients, workers, serviceNanos, cpu, 2 * MS);
    }

    Crowd(int clients, int workers, long serviceNanos, double cpu, long resendNanos) {
      this.clients = clients;
      this.workers = workers;
      this.serviceNanos = serviceNanos;
      this.cpu = cpu;
      this.resendNanos = resendNanos;
    }

    /** A client turned away sends again {@code resendNanos} later. */
    WindowSample window(int limit) {
      int inFlight = Math.min(limit, clients);
      int refused = (int) ((clients - inFlight) * WINDOW / resendNanos);
      return CrowdLoads.window(inFlight, workers, serviceNanos, cpu, refused);
    }
  }

  /**
   * An open stream of more than {@code workers} complete, in front of a container with {@code
   * threads} threads: as many calls in flight as the limit lets in, up to the threads; the limit
   * turns away the excess ({@code excess} a window; 50 complete) only while it is below the threads
   * (above, the excess waits for one).
   */
  static final class ThreadBound {
    final int threads;
    final int workers;
    final long serviceNanos;
    final int excess;

    /** Twice what completes: as many turned away as complete. */
    ThreadBound(int threads, int workers, long serviceNanos) {
      this(threads, workers, serviceNanos, 50);
    }

    ThreadBound(int threads, int workers, long serviceNanos, int excess) {
      this.threads = threads;
      this.workers = workers;
      this.serviceNanos = serviceNanos;
      this.excess = excess;
    }

    WindowSample window(int limit) {
      int inFlight = Math.min(limit, threads);
      int refused = limit < threads ? excess : 0;
      return CrowdLoads.window(inFlight, workers, serviceNanos, 0.3, refused);
    }
  }

  /** 50 calls completed, their latency growing with the calls in flight past the workers. */
  static WindowSample window(
      int inFlight, int workers, long serviceNanos, double cpu, int refused) {
    long rtt = serviceNanos * Math.max(workers, inFlight) / workers;
    WindowSample w = new WindowSample();
    for (int i = 0; i < 50; i++) {
      w.record(rtt + (i % 5) * serviceNanos / 50);
    }
    return w.setRefused(refused)
        .setMaxInFlight(inFlight)
        .setCpu(cpu, TARGET)
        .setWindowNanos(WINDOW);
  }
}
