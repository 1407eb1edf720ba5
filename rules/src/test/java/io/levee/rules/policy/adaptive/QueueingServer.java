package io.levee.rules.policy.adaptive;

/**
 * A server with {@code workers} parallel workers under more demand than the limit: the limit is
 * always full, and calls beyond the workers share them, so latency grows with the limit past them.
 */
final class QueueingServer {
  final int workers;
  final long serviceNanos;
  final int outside;
  final double busyCpu;

  QueueingServer(int workers, long serviceNanos) {
    this(workers, serviceNanos, 0, 0.6);
  }

  /** {@code outside} more calls share the workers without holding a permit. */
  QueueingServer(int workers, long serviceNanos, int outside, double busyCpu) {
    this.workers = workers;
    this.serviceNanos = serviceNanos;
    this.outside = outside;
    this.busyCpu = busyCpu;
  }

  WindowSample window(int limit) {
    long rtt = serviceNanos * Math.max(workers, limit + outside) / workers;
    double cpu = busyCpu * Math.min(1.0, (double) (limit + outside) / workers);
    WindowSample w = new WindowSample();
    for (int i = 0; i < 50; i++) {
      w.record(rtt + (i % 5) * serviceNanos / 50);
    }
    return w.setMaxInFlight(limit)
        .setCpu(cpu, GradientCpuLimitTest.TARGET)
        .setWindowNanos(GradientCpuLimitTest.WINDOW);
  }
}
