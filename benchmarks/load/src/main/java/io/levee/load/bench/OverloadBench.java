package io.levee.load.bench;

import io.levee.load.app.Contenders;
import io.levee.load.gen.OpenLoop;
import io.levee.load.gen.Phase;
import io.levee.load.gen.Retries;
import io.levee.load.gen.Series;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The overload benchmark: calibrates C (unless given), then for each run starts the application
 * once per contender, in a shuffled order (fixed seed per run), and plays every scenario against it
 * (the priorities scenario by two Levees of its own, see {@link Priorities}); writes per-second
 * CSVs, the markdown section for docs/BENCHMARKS.md and the plots.
 *
 * <p>Options: {@code --quick --runs N --contender a,b --scenario s,t --capacity C --static-limit N
 * --levee-rules FILE --agent JAR --app-cpus CPUS --out DIR --img DIR}.
 */
public final class OverloadBench {
  static final String GENERATOR_CPU = "generator CPU, busiest second (× one CPU)";

  private OverloadBench() {}

  public static void main(String[] args) throws Exception {
    Options o = Options.parse(args);
    if (o.contenders.isEmpty()) {
      o.contenders.addAll(Contenders.NAMES);
    }
    if (o.scenarios.isEmpty()) {
      o.scenarios.addAll(Scenarios.NAMES);
    }
    if (o.quick && o.runs == 3) {
      o.runs = 1;
    }
    Files.createDirectories(o.out.resolve("raw"));
    Report report = new Report(o);
    try (Harness h = new Harness(o)) {
      Calibration cal = new Calibration();
      double c = o.capacity > 0 ? o.capacity : cal.capacity(h);
      int staticLimit =
          o.staticLimit > 0 || !o.contenders.contains("static")
              ? o.staticLimit
              : cal.staticLimit(h, c);
      report.calibrated(c, staticLimit, cal.log);
      for (int run = 1; run <= o.runs; run++) {
        List<String> order = new ArrayList<>(o.contenders);
        if (o.contenders.contains("levee") && o.scenarios.contains(Priorities.SCENARIO)) {
          order.add(Priorities.RANKED);
          order.add(Priorities.UNRANKED);
        }
        Collections.shuffle(order, new Random(run));
        for (String contender : order) {
          runContender(h, report, contender, run, c, staticLimit);
        }
      }
    }
    report.write();
    System.exit(0);
  }

  private static void runContender(
      Harness h, Report report, String contender, int run, double c, int staticLimit)
      throws Exception {
    List<String> scenarios = Scenarios.playedBy(contender, h.options.scenarios);
    if (scenarios.isEmpty()) {
      return;
    }
    String label = contender + "-run" + run;
    try (AppProcess app = h.startApp(contender, label)) {
      if (contender.equals("static")) {
        app.get("/bench/static?limit=" + staticLimit);
      }
      h.loop(app, contender, Retries.NONE).run(Scenarios.jitWarmUp(contender, c, h.options.quick));
      for (String scenario : scenarios) {
        List<Phase> phases = Scenarios.phases(scenario, c, h.options.quick);
        OpenLoop loop = h.loop(app, contender, Scenarios.retries(scenario));
        Harness.Measured measured = Harness.measure(loop, phases);
        Series s = measured.series();
        h.stub.setLatencyMillis(20);
        Map<String, Double> m = Metrics.of(scenario, phases, s, c);
        double lagP99 = loop.sendLag().getValueAtPercentile(99) / 1000.0;
        m.put("generator send lag p99 (ms)", lagP99);
        m.put("generator GC pauses", (double) measured.generatorGcs());
        m.put(GENERATOR_CPU, busiest(s.generatorCpu));
        Csv.write(h.options.out.resolve("raw").resolve(scenario + "-" + label + ".csv"), phases, s);
        report.add(scenario, contender, run, phases, s, m);
        System.out.println(scenario + " " + label + " " + summary(m));
        Thread.sleep(1000);
      }
    }
  }

  /** The busiest second of the generator's JVM; NaN when its CPU time could not be read. */
  private static double busiest(double[] perSecond) {
    return java.util.Arrays.stream(perSecond)
        .filter(v -> !Double.isNaN(v))
        .max()
        .orElse(Double.NaN);
  }

  private static String summary(Map<String, Double> m) {
    Map<String, String> out = new LinkedHashMap<>();
    m.forEach((k, v) -> out.put(k, String.format("%.3g", v)));
    return out.toString();
  }
}
