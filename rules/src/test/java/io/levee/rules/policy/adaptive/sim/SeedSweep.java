package io.levee.rules.policy.adaptive.sim;

import io.levee.rules.model.AdaptiveSpec;
import java.util.Arrays;

/**
 * Levee's {@code system} limit over many seeds of every simulated scenario: the median, mean and
 * range of each number the scenarios are judged by, so that a change to the algorithm is compared
 * on more than the few seeds the tests run. A benchmark, not a test: run it with
 *
 * <pre>
 *   mvn -B -q -o -pl rules -am test-compile
 *   java -cp rules/target/test-classes:rules/target/classes:bootstrap/target/classes \
 *       io.levee.rules.policy.adaptive.sim.SeedSweep [seeds, default 20]
 * </pre>
 */
public final class SeedSweep {
  private SeedSweep() {}

  public static void main(String[] args) {
    int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    Scenario.Server two = Scenario.Server.TWO_CORES;
    Scenario.Server one = Scenario.Server.ONE_CPU;
    Scenario.Database pool = Scenario.Database.POOL_OF_TEN;
    Scenario.Database shared = Scenario.Database.POOL_OF_TEN_SHARED;
    String[] names = {
      "step, 2 cores: goodput at 2C / C",
      "step, 2 cores: admitted p99 at 2C (ms)",
      "step, 1 cpu: goodput at 2C / C",
      "step, 1 cpu: admitted p99 at 2C (ms)",
      "slow downstream, 2 cores, /io 200/s: /io answered",
      "slow downstream, 2 cores, /io 400/s: /cpu kept",
      "slow downstream, 2 cores, /io 400/s: /io answered",
      "slow downstream, 1 cpu, /io 200/s: /cpu kept",
      "slow downstream, 1 cpu, /io 200/s: /io answered",
      "slow downstream, 1 cpu, /io 1.5C: /cpu kept",
      "slow downstream, 1 cpu, /io 1.5C: /io answered",
      "database step, 2 cores: goodput at 2C / C",
      "database step, 2 cores: admitted p99 at 2C (ms)",
      "database step, 1 cpu: goodput at 2C / C",
      "database step, 1 cpu: admitted p99 at 2C (ms)",
      "retry storm, 2 cores: goodput at 3C / C",
      "retry storm, 1 cpu: goodput at 3C / C",
      "database closed loop, 2 cores, 32 clients: refused/s",
      "database closed loop, 2 cores, 64 clients: refused/s",
      "database closed loop, 2 cores, 64 clients: p99 (ms)",
      "database closed loop, 1 cpu, 64 clients: refused/s",
      "database step, slow moments, 2 cores: goodput at 2C / C",
      "database step, slow moments, 2 cores: admitted p99 (ms)",
      "database closed loop, slow moments, 64 clients: refused/s"
    };
    double[][] values = new double[names.length][seeds];
    for (int i = 0; i < seeds; i++) {
      long seed = i + 1;
      double[] v = new double[names.length];
      Outcomes.Step step = Outcomes.step(two, levee(), seed);
      v[0] = step.goodputAtTwiceCapacity();
      v[1] = step.p99MillisAtTwiceCapacity();
      step = Outcomes.step(one, levee(), seed);
      v[2] = step.goodputAtTwiceCapacity();
      v[3] = step.p99MillisAtTwiceCapacity();
      v[4] = Outcomes.slow(two, levee(), 200, seed).ioAnsweredWhileSlow();
      Outcomes.SlowDownstream slow = Outcomes.slow(two, levee(), 400, seed);
      v[5] = slow.cpuGoodputKept();
      v[6] = slow.ioAnsweredWhileSlow();
      slow = Outcomes.slow(one, levee(), 200, seed);
      v[7] = slow.cpuGoodputKept();
      v[8] = slow.ioAnsweredWhileSlow();
      slow = Outcomes.slow(one, levee(), 1.5 * one.c(), seed);
      v[9] = slow.cpuGoodputKept();
      v[10] = slow.ioAnsweredWhileSlow();
      step = Outcomes.database(two, pool, levee(), seed);
      v[11] = step.goodputAtTwiceCapacity();
      v[12] = step.p99MillisAtTwiceCapacity();
      step = Outcomes.database(one, pool, levee(), seed);
      v[13] = step.goodputAtTwiceCapacity();
      v[14] = step.p99MillisAtTwiceCapacity();
      v[15] = Outcomes.retry(two, levee(), seed).goodputDuring();
      v[16] = Outcomes.retry(one, levee(), seed).goodputDuring();
      v[17] = Outcomes.closedLoop(two, pool, 32, levee(), seed).refusedPerSecond();
      Outcomes.ClosedLoop loop = Outcomes.closedLoop(two, pool, 64, levee(), seed);
      v[18] = loop.refusedPerSecond();
      v[19] = loop.p99Millis();
      v[20] = Outcomes.closedLoop(one, pool, 64, levee(), seed).refusedPerSecond();
      step = Outcomes.database(two, shared, levee(), seed);
      v[21] = step.goodputAtTwiceCapacity();
      v[22] = step.p99MillisAtTwiceCapacity();
      v[23] = Outcomes.closedLoop(two, shared, 64, levee(), seed).refusedPerSecond();
      for (int k = 0; k < names.length; k++) {
        values[k][i] = v[k];
      }
    }
    System.out.printf(
        "%-52s %9s %9s %9s %9s%n", "seeds 1-" + seeds, "median", "mean", "min", "max");
    for (int k = 0; k < names.length; k++) {
      double[] sorted = values[k].clone();
      Arrays.sort(sorted);
      double mean = Arrays.stream(sorted).average().orElse(0);
      System.out.printf(
          "%-52s %9.3f %9.3f %9.3f %9.3f%n",
          names[k], sorted[seeds / 2], mean, sorted[0], sorted[seeds - 1]);
    }
  }

  private static Admission levee() {
    return Admission.levee(AdaptiveSpec.defaults());
  }
}
