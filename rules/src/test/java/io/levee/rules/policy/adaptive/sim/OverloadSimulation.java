package io.levee.rules.policy.adaptive.sim;

import io.levee.rules.model.AdaptiveSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the benchmark's overload scenarios in the simulated container against every contender and
 * prints one table per scenario. A benchmark, not a test: run it with
 *
 * <pre>
 *   mvn -B -q -o -pl rules -am test-compile
 *   java -cp rules/target/test-classes:rules/target/classes:bootstrap/target/classes \
 *       io.levee.rules.policy.adaptive.sim.OverloadSimulation [seed [1cpu]]
 * </pre>
 */
public final class OverloadSimulation {
  private OverloadSimulation() {}

  public static void main(String[] args) {
    long seed = args.length > 0 ? Long.parseLong(args[0]) : 1;
    boolean oneCpu = args.length > 1 && args[1].equals("1cpu");
    Scenario.Server server = oneCpu ? Scenario.Server.ONE_CPU : Scenario.Server.TWO_CORES;
    System.out.printf(
        "%s: C = %.0f req/s, deadline %d ms, seed %d%n",
        server.name(), server.c(), Scenario.DEADLINE_NANOS / 1_000_000, seed);
    System.out.println("\n== static limits at 2C: limit, goodput / C, p99 ms");
    int best = 1;
    double bestGoodput = -1;
    for (int limit = 1; limit <= 32; limit++) {
      Outcomes.Step step = Outcomes.step(server, Admission.fixed(limit), seed);
      double goodput = step.goodputAtTwiceCapacity();
      if (limit <= 12 || limit % 4 == 0) {
        System.out.printf("%2d %6.3f %8.2f%n", limit, goodput, step.p99MillisAtTwiceCapacity());
      }
      if (goodput > bestGoodput + 0.005) {
        best = limit;
        bestGoodput = goodput;
      }
    }
    int bestLimit = best;
    List<Admission.Contender> contenders = new ArrayList<>();
    contenders.add(new Admission.Contender("none", Admission::none));
    contenders.add(new Admission.Contender("static " + best, () -> Admission.fixed(bestLimit)));
    contenders.add(new Admission.Contender("gradient2 default", Gradient2::defaults));
    contenders.add(new Admission.Contender("gradient2 tuned", () -> new Gradient2(2, 200, 20)));
    contenders.add(new Admission.Contender("sentinel cpu 0.8", () -> Admission.sentinelCpu(0.8)));
    contenders.add(
        new Admission.Contender("levee", () -> Admission.levee(AdaptiveSpec.defaults())));

    System.out.println("\n== " + Scenario.step(server).name());
    System.out.println(
        "contender            goodput@2C  p50ms  p99ms  rej@0.5C(before/after)  settle-up "
            + " settle-down  limitCoV  meanLimit");
    for (Admission.Contender c : contenders) {
      System.out.println(row(c.name(), Outcomes.step(server, c.create().get(), seed).row()));
    }
    for (double io : new double[] {200, 400}) {
      Scenario s = Scenario.slowDownstream(server, io);
      System.out.println("\n== " + s.name());
      System.out.println(
          "contender            /cpu kept  /cpu p99ms(slow)  /io served(slow)/offered "
              + " rejects(slow)");
      for (Admission.Contender c : contenders) {
        System.out.println(row(c.name(), Outcomes.slow(server, c.create().get(), io, seed).row()));
      }
    }
    Scenario.Database database = Scenario.Database.POOL_OF_TEN;
    System.out.println("\n== " + Scenario.poolBound(server, database).name());
    System.out.println(
        "contender            goodput@2C  p50ms  p99ms  rej@0.5C(before/after)  settle-up "
            + " settle-down  limitCoV  meanLimit");
    for (Admission.Contender c : contenders) {
      Outcomes.Step step = Outcomes.database(server, database, c.create().get(), seed);
      System.out.println(row(c.name(), step.row()));
    }
    for (int clients : new int[] {16, 32, 64}) {
      System.out.println("\n== " + Scenario.closedLoop(server, database, clients).name());
      System.out.println("contender            goodput/C  refused/s  p99ms  meanLimit");
      for (Admission.Contender c : contenders) {
        Outcomes.ClosedLoop loop =
            Outcomes.closedLoop(server, database, clients, c.create().get(), seed);
        System.out.println(row(c.name(), loop.row()));
      }
    }
    System.out.println("\n== " + Scenario.retryStorm(server).name());
    System.out.println(
        "contender            goodput@0.7C  goodput@3C  p99ms@3C  recovery-s  after/before");
    for (Admission.Contender c : contenders) {
      System.out.println(row(c.name(), Outcomes.retry(server, c.create().get(), seed).row()));
    }
  }

  private static String row(String name, double[] values) {
    StringBuilder b = new StringBuilder(String.format("%-20s", name));
    for (double v : values) {
      b.append(String.format(" %10.3f", v));
    }
    return b.toString();
  }
}
