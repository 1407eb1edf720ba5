package io.levee.rules.policy.adaptive.sim;

import java.util.List;

/**
 * An open-loop load in phases, against the benchmark's servlet container: a CPU-bound page
 * ({@code /cpu}, {@link #CPU_NANOS} of CPU) and a latency-bound page ({@code /io}, a little CPU,
 * then a blocking call to a downstream whose latency each phase sets).
 *
 * @param retries clients retry a rejected or timed-out call once, after a jittered backoff
 */
public record Scenario(String name, List<Phase> phases, boolean retries) {
  /** Cores of the simulated server. */
  public static final int CORES = 2;
  /** Worker threads of the container (Tomcat's default). */
  public static final int THREADS = 200;
  /** CPU of one {@code /cpu} request. */
  public static final long CPU_NANOS = 2_000_000L;
  /** CPU of one {@code /io} request besides its downstream wait. */
  public static final long IO_CPU_NANOS = 200_000L;
  /** The container's own CPU per request (parse, write); a rejected request costs only this. */
  public static final long OVERHEAD_NANOS = 50_000L;
  /** An answer later than this is not goodput. */
  public static final long DEADLINE_NANOS = 250_000_000L;
  /** The client gives up (and, with retries, tries again) after this. */
  public static final long CLIENT_TIMEOUT_NANOS = 2_000_000_000L;
  /** Capacity of the server for {@code /cpu} alone, requests per second. */
  public static final double C = CORES * 1e9 / (CPU_NANOS + OVERHEAD_NANOS);

  /** A stretch of constant load: arrival rates per page, and the downstream's latency. */
  public record Phase(double seconds, double cpuRate, double ioRate, long downstreamNanos) {
    public static Phase cpu(double seconds, double timesC) {
      return new Phase(seconds, timesC * C, 0, 20_000_000L);
    }
  }

  public double totalSeconds() {
    double s = 0;
    for (Phase p : phases) {
      s += p.seconds();
    }
    return s;
  }

  /** Overload step on the CPU-bound page: 0.5C, 2C, 0.5C. */
  public static Scenario step() {
    return new Scenario(
        "step 0.5C-2C-0.5C",
        List.of(Phase.cpu(10, 0.5), Phase.cpu(20, 2), Phase.cpu(10, 0.5)),
        false);
  }

  /**
   * The downstream of {@code /io} slows from 20 to 400 ms while {@code /cpu} keeps 0.3C; {@code
   * ioRate} requests per second of {@code /io} (200 hold 80 threads once it is slow).
   */
  public static Scenario slowDownstream(double ioRate) {
    double cpu = 0.3 * C;
    return new Scenario(
        "slow downstream, /io " + (int) ioRate + "/s",
        List.of(
            new Phase(10, cpu, ioRate, 20_000_000L),
            new Phase(20, cpu, ioRate, 400_000_000L),
            new Phase(10, cpu, ioRate, 20_000_000L)),
        false);
  }

  /** A retry storm: 0.7C, then 3C with clients retrying once, then 0.7C. */
  public static Scenario retryStorm() {
    return new Scenario(
        "retry storm 3C-0.7C",
        List.of(Phase.cpu(10, 0.7), Phase.cpu(20, 3), Phase.cpu(20, 0.7)),
        true);
  }
}
