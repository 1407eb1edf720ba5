package io.levee.rules.policy.adaptive.sim;

/** The numbers each scenario is judged by, from one simulated run. */
public final class Outcomes {
  private static final double MS = 1e6;

  private Outcomes() {}

  /**
   * Step 0.5C (0-10 s), 2C (10-30 s), 0.5C (30-40 s): {goodput at 2C / C, admitted p50 ms and p99
   * ms at 2C, rejects during the first 0.5C, rejects during the last 0.5C, seconds to settle after
   * the up step, seconds to settle after the down step, CoV of the limit over the last 10 s of 2C,
   * mean limit then}.
   */
  public static double[] step(Admission admission, long seed) {
    return step(Scenario.Server.TWO_CORES, admission, seed);
  }

  /** {@link #step(Admission, long)} on another server. */
  public static double[] step(Scenario.Server server, Admission admission, long seed) {
    Metrics m = new ServerModel(Scenario.step(server), admission, seed).run();
    double overload = m.goodput(true, 12, 30);
    double settled = m.goodput(true, 20, 30);
    return new double[] {
      overload / server.c(),
      m.percentile(1, 0.5) / MS,
      m.percentile(1, 0.99) / MS,
      m.rejects(0, 10),
      m.rejects(30, 40),
      m.settleSeconds(10, 30, settled),
      m.settleSeconds(30, 40, -1),
      m.limitCov(20, 30),
      m.meanLimit(20, 30)
    };
  }

  /**
   * Slow downstream (20 ms for 0-10 s, 400 ms for 10-30 s, 20 ms for 30-40 s): {goodput of /cpu
   * while /io is slow as a fraction of its goodput before, /cpu admitted p99 ms while slow (of both
   * pages, as the clients see it), /io answered before the client timeout while slow, as a fraction of /io offered, rejects while
   * slow}.
   */
  public static double[] slow(Admission admission, double ioRate, long seed) {
    return slow(Scenario.Server.TWO_CORES, admission, ioRate, seed);
  }

  /** {@link #slow(Admission, double, long)} on another server. */
  public static double[] slow(
      Scenario.Server server, Admission admission, double ioRate, long seed) {
    Metrics m = new ServerModel(Scenario.slowDownstream(server, ioRate), admission, seed).run();
    double before = m.goodput(true, 2, 10);
    double during = m.goodput(true, 10, 30);
    return new double[] {
      during / before, m.percentile(1, 0.99) / MS, m.served(false, 12, 30) / ioRate, m.rejects(10, 30)
    };
  }

  /**
   * Retry storm (0.7C for 0-10 s, 3C with retries for 10-30 s, 0.7C for 30-50 s): {goodput before /
   * C, goodput during / C, admitted p99 ms during, seconds after the load falls until goodput stays
   * at 95 % of the load sent, goodput over the last 10 s / before}.
   */
  public static double[] retry(Admission admission, long seed) {
    return retry(Scenario.Server.TWO_CORES, admission, seed);
  }

  /** {@link #retry(Admission, long)} on another server. */
  public static double[] retry(Scenario.Server server, Admission admission, long seed) {
    Metrics m = new ServerModel(Scenario.retryStorm(server), admission, seed).run();
    double before = m.goodput(true, 2, 10);
    return new double[] {
      before / server.c(),
      m.goodput(true, 10, 30) / server.c(),
      m.percentile(1, 0.99) / MS,
      m.recoverySeconds(30, 50, 0.95),
      m.goodput(true, 40, 50) / before
    };
  }
}
