package io.levee.load.bench;

import io.levee.load.app.Contenders;
import io.levee.load.gen.Phase;
import io.levee.load.gen.Series;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gathers every run's metrics and per-second curves, then writes the markdown section of
 * docs/BENCHMARKS.md ({@code section.md} in the output directory) and one plot per scenario.
 */
final class Report {
  private final Options o;
  private final Machine machine = Machine.now();
  private final Map<String, Map<String, List<Map<String, Double>>>> metrics = new LinkedHashMap<>();
  private final Map<String, Map<String, List<double[][]>>> curves = new LinkedHashMap<>();
  private final Map<String, List<Phase>> phases = new LinkedHashMap<>();
  private double c;
  private int staticLimit;
  private List<String> calibration = List.of();

  Report(Options o) {
    this.o = o;
  }

  void calibrated(double c, int staticLimit, List<String> log) {
    this.c = c;
    this.staticLimit = staticLimit;
    this.calibration = new ArrayList<>(log);
  }

  void add(
      String scenario, String contender, int run, List<Phase> ph, Series s, Map<String, Double> m) {
    phases.put(scenario, ph);
    metrics
        .computeIfAbsent(scenario, k -> inOrder())
        .computeIfAbsent(contender, k -> new ArrayList<>())
        .add(m);
    double[][] curve = new double[3][s.seconds];
    List<String> plotted = Scenarios.plotted(scenario);
    for (int i = 0; i < s.seconds; i++) {
      Window w = new Window(s, plotted, i, i + 1);
      curve[0][i] = w.goodPerSecond() / c;
      curve[1][i] = w.millis(99);
      curve[2][i] = s.limitMean[i];
    }
    curves
        .computeIfAbsent(scenario, k -> inOrder())
        .computeIfAbsent(contender, k -> new ArrayList<>())
        .add(curve);
  }

  /**
   * Tables and legends list the contenders in {@link Contenders#NAMES} order, whatever the run
   * order, and the Levees of the priorities scenario after them.
   */
  private static <V> Map<String, V> inOrder() {
    return new java.util.TreeMap<>(
        java.util.Comparator.comparingInt(Report::place).thenComparing(n -> n));
  }

  private static int place(String contender) {
    int i = Contenders.NAMES.indexOf(contender);
    return i < 0 ? Contenders.NAMES.size() : i;
  }

  void write() throws IOException {
    Machine after = Machine.now();
    StringBuilder b = new StringBuilder();
    b.append("### Run\n");
    machine.describe(b, after);
    b.append("- Application JVM: `").append(String.join(" ", AppProcess.JVM_FLAGS)).append("`, ");
    b.append(o.appCpus.isEmpty() ? "not pinned" : "pinned with `taskset -c " + o.appCpus + "`")
        .append("; generator and stub in the benchmark JVM")
        .append(o.appCpus.isEmpty() ? "" : " (pinned by the script to the other CPU)")
        .append('\n');
    b.append("- Command: `").append(o.command).append("`\n");
    b.append(
        String.format(
            "- Runs: %d per contender and scenario%s; contenders in a shuffled order per run, one application JVM per contender and run playing the scenarios in turn%n",
            o.runs, o.quick ? " (`--quick`: phases about half as long)" : ""));
    // Without the static contender (and no --static-limit) no limit was calibrated.
    b.append(
        String.format(
            "- Calibrated capacity of `/cpu` without protection: **C = %.0f requests/s**%s%n",
            c, staticLimit > 0 ? "; best static limit at 2C: **" + staticLimit + "**" : ""));
    b.append("\n<details><summary>Calibration steps</summary>\n\n```\n");
    calibration.forEach(l -> b.append(l).append('\n'));
    b.append("```\n</details>\n\n");
    for (String scenario : metrics.keySet()) {
      table(b, scenario);
      Path png = o.img.resolve("overload-" + scenario + ".png");
      Files.createDirectories(o.img);
      Plot.draw(png, scenario, phases.get(scenario), medians(scenario));
      b.append("![").append(scenario).append("](img/").append(png.getFileName()).append(")\n\n");
    }
    Targets.append(b, metrics);
    Files.writeString(o.out.resolve("section.md"), b);
  }

  private void table(StringBuilder b, String scenario) {
    Map<String, List<Map<String, Double>>> byContender = metrics.get(scenario);
    List<String> keys = new ArrayList<>(byContender.values().iterator().next().get(0).keySet());
    b.append("#### Scenario `").append(scenario).append("`: ");
    List<String> names = new ArrayList<>();
    phases.get(scenario).forEach(p -> names.add(p.name() + " " + p.seconds() + " s"));
    b.append(String.join(" → ", names)).append("\n\n| metric |");
    byContender.keySet().forEach(k -> b.append(' ').append(k).append(" |"));
    b.append("\n|---|");
    byContender.keySet().forEach(k -> b.append("---:|"));
    b.append('\n');
    for (String key : keys) {
      b.append("| ").append(key).append(" |");
      for (List<Map<String, Double>> runs : byContender.values()) {
        List<Double> v = new ArrayList<>();
        runs.forEach(m -> v.add(m.get(key)));
        b.append(' ').append(Stats.show(v)).append(" |");
      }
      b.append('\n');
    }
    b.append('\n');
  }

  /** Per contender, the per-second median over runs of goodput/C, admitted p99 and the limit. */
  private Map<String, double[][]> medians(String scenario) {
    Map<String, double[][]> out = new LinkedHashMap<>();
    curves
        .get(scenario)
        .forEach(
            (contender, runs) -> {
              int n = runs.get(0)[0].length;
              double[][] med = new double[3][n];
              for (int k = 0; k < 3; k++) {
                for (int i = 0; i < n; i++) {
                  List<Double> v = new ArrayList<>();
                  for (double[][] r : runs) {
                    if (!Double.isNaN(r[k][i])) {
                      v.add(r[k][i]);
                    }
                  }
                  med[k][i] = Stats.median(v);
                }
              }
              out.put(contender, med);
            });
    return out;
  }
}
