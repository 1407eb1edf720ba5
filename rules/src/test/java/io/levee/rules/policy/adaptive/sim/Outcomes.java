package io.levee.rules.policy.adaptive.sim;

/** The numbers each scenario is judged by, from one simulated run, each under its own name. */
public final class Outcomes {
  private static final double MS = 1e6;

  private Outcomes() {}

  /**
   * Overload step: 0.5C for 0-10 s, 2C for 10-30 s, 0.5C for 30-40 s, on the CPU-bound page.
   *
   * @param goodputAtTwiceCapacity goodput from 2 s after the step up to its end, times C
   * @param p50MillisAtTwiceCapacity admitted median latency of the requests sent at 2C
   * @param p99MillisAtTwiceCapacity admitted p99 latency of the requests sent at 2C
   * @param rejectsBeforeTheStep rejected requests sent during the first 0.5C
   * @param rejectsAfterTheStep rejected requests sent during the last 0.5C
   * @param secondsToSettleAfterStepUp until every later second at 2C has goodput within 10 % of
   *     that of the last 10 s at 2C, and an admitted p99 within the deadline
   * @param secondsToSettleAfterStepDown until every later second has goodput within 10 % of the
   *     first attempts sent in it, and an admitted p99 within the deadline
   * @param limitCovAtTwiceCapacity coefficient of variation of the limit over the last 10 s at 2C
   * @param meanLimitAtTwiceCapacity the limit's mean over the same 10 s
   */
  public record Step(
      double goodputAtTwiceCapacity,
      double p50MillisAtTwiceCapacity,
      double p99MillisAtTwiceCapacity,
      long rejectsBeforeTheStep,
      long rejectsAfterTheStep,
      double secondsToSettleAfterStepUp,
      double secondsToSettleAfterStepDown,
      double limitCovAtTwiceCapacity,
      double meanLimitAtTwiceCapacity) {
    /** The values in the order of {@link OverloadSimulation}'s table. */
    double[] row() {
      return new double[] {
        goodputAtTwiceCapacity,
        p50MillisAtTwiceCapacity,
        p99MillisAtTwiceCapacity,
        rejectsBeforeTheStep,
        rejectsAfterTheStep,
        secondsToSettleAfterStepUp,
        secondsToSettleAfterStepDown,
        limitCovAtTwiceCapacity,
        meanLimitAtTwiceCapacity
      };
    }
  }

  /**
   * Slow downstream: {@code /io}'s downstream takes 20 ms for 0-10 s, 400 ms for 10-30 s, 20 ms for
   * 30-40 s, while {@code /cpu} keeps 0.3C.
   *
   * @param cpuGoodputKept goodput of {@code /cpu} while slow, as a fraction of its goodput before
   * @param cpuP99MillisWhileSlow admitted p99 latency of {@code /cpu} while slow, as its clients
   *     see it (both pages share the threads)
   * @param ioAnsweredWhileSlow {@code /io} answered before the client timeout while slow, as a
   *     fraction of {@code /io} offered
   * @param rejectsWhileSlow rejected requests of both pages sent while slow
   */
  public record SlowDownstream(
      double cpuGoodputKept,
      double cpuP99MillisWhileSlow,
      double ioAnsweredWhileSlow,
      long rejectsWhileSlow) {
    /** The values in the order of {@link OverloadSimulation}'s table. */
    double[] row() {
      return new double[] {
        cpuGoodputKept, cpuP99MillisWhileSlow, ioAnsweredWhileSlow, rejectsWhileSlow
      };
    }
  }

  /**
   * Retry storm: 0.7C for 0-10 s, 3C with retries for 10-30 s, 0.7C for 30-50 s.
   *
   * @param goodputBefore goodput before the storm, times C
   * @param goodputDuring goodput during the storm, times C
   * @param p99MillisDuring admitted p99 latency of the requests sent during the storm
   * @param secondsToRecover after the load falls, until goodput stays at 95 % of the load sent
   * @param goodputAtTheEndOverBefore goodput over the last 10 s, as a fraction of goodput before
   */
  public record RetryStorm(
      double goodputBefore,
      double goodputDuring,
      double p99MillisDuring,
      double secondsToRecover,
      double goodputAtTheEndOverBefore) {
    /** The values in the order of {@link OverloadSimulation}'s table. */
    double[] row() {
      return new double[] {
        goodputBefore, goodputDuring, p99MillisDuring, secondsToRecover, goodputAtTheEndOverBefore
      };
    }
  }

  /**
   * Closed loop on {@link Scenario#closedLoop}, judged over 10-30 s.
   *
   * @param goodput answers per second, times the database's C
   * @param refusedPerSecond requests the limit turned away, per second
   * @param p99Millis p99 latency of the answered requests sent in the run
   * @param meanLimit the limit's mean
   */
  public record ClosedLoop(
      double goodput, double refusedPerSecond, double p99Millis, double meanLimit) {
    double[] row() {
      return new double[] {goodput, refusedPerSecond, p99Millis, meanLimit};
    }
  }

  public static ClosedLoop closedLoop(
      Scenario.Server server,
      Scenario.Database database,
      int clients,
      Admission admission,
      long seed) {
    Scenario s = Scenario.closedLoop(server, database, clients);
    Metrics m = new ServerModel(s, admission, seed).run();
    return new ClosedLoop(
        m.served(false, 10, 30) / database.c(),
        m.rejects(10, 30) / 20.0,
        m.percentile(0, 0.99) / MS,
        m.meanLimit(10, 30));
  }

  /** {@link Step} on two cores. */
  public static Step step(Admission admission, long seed) {
    return step(Scenario.Server.TWO_CORES, admission, seed);
  }

  public static Step step(Scenario.Server server, Admission admission, long seed) {
    return step(new ServerModel(Scenario.step(server), admission, seed).run(), true, server.c());
  }

  /**
   * {@link Step} of {@link Scenario#poolBound}: the same numbers for {@code /io}, goodput times the
   * database's C.
   */
  public static Step database(
      Scenario.Server server, Scenario.Database database, Admission admission, long seed) {
    return database(server, database, 2, Scenario.THREADS, admission, seed);
  }

  /** The same at {@code overload} times C, in a container of {@code threads} worker threads. */
  public static Step database(
      Scenario.Server server,
      Scenario.Database database,
      double overload,
      int threads,
      Admission admission,
      long seed) {
    Scenario scenario = Scenario.poolBound(server, database, overload, threads);
    return step(new ServerModel(scenario, admission, seed).run(), false, database.c());
  }

  /** {@link Scenario#threadBound}: the threads are the narrowest point. */
  public static Step threadBound(
      Scenario.Server server, int threads, double overload, Admission admission, long seed) {
    Scenario scenario = Scenario.threadBound(server, threads, overload);
    Metrics m = new ServerModel(scenario, admission, seed).run();
    return step(m, false, Scenario.threadsCapacity(threads));
  }

  private static Step step(Metrics m, boolean cpuPage, double c) {
    double overload = m.goodput(cpuPage, 12, 30);
    double settled = m.goodput(cpuPage, 20, 30);
    return new Step(
        overload / c,
        m.percentile(1, 0.5) / MS,
        m.percentile(1, 0.99) / MS,
        m.rejects(0, 10),
        m.rejects(30, 40),
        m.settleSeconds(10, 30, settled),
        m.settleSeconds(30, 40, -1),
        m.limitCov(20, 30),
        m.meanLimit(20, 30));
  }

  /** {@link SlowDownstream} on two cores, {@code ioRate} requests per second of {@code /io}. */
  public static SlowDownstream slow(Admission admission, double ioRate, long seed) {
    return slow(Scenario.Server.TWO_CORES, admission, ioRate, seed);
  }

  public static SlowDownstream slow(
      Scenario.Server server, Admission admission, double ioRate, long seed) {
    Metrics m = new ServerModel(Scenario.slowDownstream(server, ioRate), admission, seed).run();
    double before = m.goodput(true, 2, 10);
    double during = m.goodput(true, 10, 30);
    return new SlowDownstream(
        during / before,
        m.percentile(1, 0.99) / MS,
        m.served(false, 12, 30) / ioRate,
        m.rejects(10, 30));
  }

  /** {@link RetryStorm} on two cores. */
  public static RetryStorm retry(Admission admission, long seed) {
    return retry(Scenario.Server.TWO_CORES, admission, seed);
  }

  public static RetryStorm retry(Scenario.Server server, Admission admission, long seed) {
    Metrics m = new ServerModel(Scenario.retryStorm(server), admission, seed).run();
    double before = m.goodput(true, 2, 10);
    return new RetryStorm(
        before / server.c(),
        m.goodput(true, 10, 30) / server.c(),
        m.percentile(1, 0.99) / MS,
        m.recoverySeconds(30, 50, 0.95),
        m.goodput(true, 40, 50) / before);
  }
}
