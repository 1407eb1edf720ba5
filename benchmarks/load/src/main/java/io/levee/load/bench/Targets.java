package io.levee.load.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The overload targets for Levee, each checked on the medians of this run: at least as good as the
 * best other protected contender where one is named, the bounds given otherwise.
 */
final class Targets {
  private Targets() {}

  static void append(StringBuilder b, Map<String, Map<String, List<Map<String, Double>>>> metrics) {
    b.append(
        "#### Targets (Levee, medians of this run)\n\n| target | measured | met |\n|---|---|---|\n");
    Map<String, List<Map<String, Double>>> step = metrics.get("step");
    if (step != null && step.containsKey("levee")) {
      String goodKey = "goodput at 2C (× C)";
      String p99Key = "admitted p99 at 2C (ms)";
      double p99 = med(step, "levee", p99Key);
      String bestP99 = best(step, p99Key, false);
      atLeastTheBest(b, "step", step, goodKey, "goodput at 2C");
      if (bestP99 != null) {
        double other = med(step, bestP99, p99Key);
        row(
            b,
            "step: admitted p99 at 2C ≤ 0.5 × the best other contender's ("
                + bestP99
                + ", "
                + Stats.num(other)
                + " ms)",
            Stats.num(p99 / other) + " ×",
            p99 <= 0.5 * other);
      }
      double up = med(step, "levee", "goodput 3 s average settles after 0.5C→2C (s)");
      double down = med(step, "levee", "goodput 3 s average settles after 2C→0.5C (s)");
      double limit = med(step, "levee", "limit settles after 0.5C→2C (s)");
      row(
          b,
          "step: goodput (3 s average) and limit settle within 2 s of each step",
          Stats.num(up) + " s up, " + Stats.num(down) + " s down, limit " + Stats.num(limit) + " s",
          up <= 2 && down <= 2 && limit <= 2);
      double rejects = med(step, "levee", "rejects at 0.5C");
      row(
          b,
          "step: no rejects while the load is 0.5C (from the second after the drop)",
          Stats.num(rejects),
          rejects == 0);
    }
    Map<String, List<Map<String, Double>>> io = metrics.get("slow-io");
    if (io != null && io.containsKey("levee")) {
      double keep = med(io, "levee", "/cpu goodput while slow (× before)");
      row(
          b,
          "slow downstream: /cpu keeps ≥ 95 % of its goodput",
          Stats.num(100 * keep) + " %",
          keep >= 0.95);
    }
    for (String scenario : List.of("retry", "retry-backoff", "retry-aggressive")) {
      Map<String, List<Map<String, Double>>> storm = metrics.get(scenario);
      if (storm == null || !storm.containsKey("levee")) {
        continue;
      }
      atLeastTheBest(b, scenario, storm, "goodput at 3C (× C)", "goodput at 3C");
      double after = med(storm, "levee", "goodput at 0.7C (× offered)");
      row(
          b,
          scenario + ": goodput at 0.7C ≥ 0.95 of the offered load",
          Stats.num(after),
          after >= 0.95);
    }
    priorities(b, metrics.get(Priorities.SCENARIO));
    generatorHeadroom(b, metrics);
    b.append('\n');
  }

  /**
   * Whether the numbers above are the contenders': a generator that used its whole CPU in some
   * second sent late and read late, and charged its own queue to whatever server it measured.
   */
  private static void generatorHeadroom(
      StringBuilder b, Map<String, Map<String, List<Map<String, Double>>>> metrics) {
    double max = Double.NaN;
    String where = "";
    for (var scenario : metrics.entrySet()) {
      for (var runs : scenario.getValue().values()) {
        for (Map<String, Double> run : runs) {
          Double v = run.get(OverloadBench.GENERATOR_CPU);
          if (v != null && !Double.isNaN(v) && !(v <= max)) {
            max = v;
            where = scenario.getKey();
          }
        }
      }
    }
    if (Double.isNaN(max)) {
      return;
    }
    row(
        b,
        "every run: the generator kept headroom (its busiest second ≤ 0.9 of its CPU)",
        Stats.num(max) + " (" + where + ")",
        max <= 0.9);
  }

  /**
   * The targets for priorities at 2C, Levee with priorities judged against its own offered load and
   * against the same rules without them.
   */
  private static void priorities(StringBuilder b, Map<String, List<Map<String, Double>>> m) {
    if (m == null || !m.containsKey(Priorities.RANKED)) {
      return;
    }
    double critical = med(m, Priorities.RANKED, "critical goodput at 2C (× offered)");
    row(
        b,
        "priorities: critical goodput at 2C ≥ 0.98 of its offered load",
        // three places: at two, 0.975 would show as a 0.98 that misses the target
        String.format(java.util.Locale.ROOT, "%.3f", critical),
        critical >= 0.98);
    if (!m.containsKey(Priorities.UNRANKED)) {
      return;
    }
    String key = "goodput at 2C (× C)";
    double ranked = med(m, Priorities.RANKED, key);
    double unranked = med(m, Priorities.UNRANKED, key);
    row(
        b,
        "priorities: total goodput at 2C ≥ Levee's without priorities ("
            + Stats.num(unranked)
            + " C)",
        Stats.num(ranked) + " C",
        ranked >= unranked);
  }

  /** A row: Levee's median of {@code key} (a multiple of C) at least the best other contender's. */
  private static void atLeastTheBest(
      StringBuilder b,
      String scenario,
      Map<String, List<Map<String, Double>>> m,
      String key,
      String what) {
    String bestName = best(m, key, true);
    if (bestName == null) {
      return;
    }
    double good = med(m, "levee", key);
    double other = med(m, bestName, key);
    row(
        b,
        scenario
            + ": "
            + what
            + " ≥ the best other contender's ("
            + bestName
            + ", "
            + Stats.num(other)
            + " C)",
        Stats.num(good) + " C",
        good >= other);
  }

  /**
   * The protected contender other than Levee with the highest ({@code highest}) or lowest median of
   * {@code key}; null when there is none.
   */
  private static String best(
      Map<String, List<Map<String, Double>>> m, String key, boolean highest) {
    String name = null;
    double value = Double.NaN;
    for (String other : m.keySet()) {
      if (other.equals("levee") || other.equals("none")) {
        continue;
      }
      double v = med(m, other, key);
      if (Double.isNaN(v)) {
        continue;
      }
      if (name == null || (highest ? v > value : v < value)) {
        name = other;
        value = v;
      }
    }
    return name;
  }

  private static double med(
      Map<String, List<Map<String, Double>>> m, String contender, String key) {
    List<Double> v = new ArrayList<>();
    m.get(contender).forEach(r -> v.add(r.get(key)));
    return Stats.median(v);
  }

  private static void row(StringBuilder b, String target, String measured, boolean met) {
    b.append("| ")
        .append(target)
        .append(" | ")
        .append(measured)
        .append(" | ")
        .append(met ? "yes" : "**no**")
        .append(" |\n");
  }
}
