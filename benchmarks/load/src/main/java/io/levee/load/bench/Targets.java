package io.levee.load.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Issue 7's overload targets for Levee, each checked on the medians of this run. */
final class Targets {
  private Targets() {}

  static void append(StringBuilder b, Map<String, Map<String, List<Map<String, Double>>>> metrics) {
    b.append(
        "#### Targets (Levee, medians of this run)\n\n| target | measured | met |\n|---|---|---|\n");
    Map<String, List<Map<String, Double>>> step = metrics.get("step");
    if (step != null && step.containsKey("levee")) {
      double good = med(step, "levee", "goodput at 2C (× C)");
      row(b, "step: goodput at 2C ≥ 0.9 C", Stats.num(good) + " C", good >= 0.9);
      double p99 = med(step, "levee", "admitted p99 at 2C (ms)");
      double best = Double.NaN;
      String bestName = "";
      for (String other : step.keySet()) {
        double v = med(step, other, "admitted p99 at 2C (ms)");
        if (!other.equals("levee") && !other.equals("none") && !(v >= best)) {
          best = v;
          bestName = other;
        }
      }
      row(
          b,
          "step: admitted p99 at 2C within the deadline (" + Scenarios.CPU_DEADLINE_MS + " ms)",
          Stats.num(p99) + " ms",
          p99 <= Scenarios.CPU_DEADLINE_MS);
      if (!Double.isNaN(best)) {
        row(
            b,
            "step: admitted p99 ≤ 0.7 × the best other contender's ("
                + bestName
                + ", "
                + Stats.num(best)
                + " ms)",
            Stats.num(p99 / best) + " ×",
            p99 <= 0.7 * best);
      }
      double up = med(step, "levee", "converge after 0.5C→2C (s)");
      double down = med(step, "levee", "converge after 2C→0.5C (s)");
      row(
          b,
          "step: converges within 2 s of each step",
          Stats.num(up) + " s up, " + Stats.num(down) + " s down",
          up <= 2 && down <= 2);
      double rejects = med(step, "levee", "rejects at 0.5C");
      row(b, "step: no rejects while the load is 0.5C", Stats.num(rejects), rejects == 0);
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
    Map<String, List<Map<String, Double>>> retry = metrics.get("retry");
    if (retry != null && retry.containsKey("levee")) {
      double rec = med(retry, "levee", "recovery to 95 % after 3C→0.7C (s)");
      row(
          b,
          "retry storm: goodput back to 95 % within 10 s after the load falls",
          Stats.num(rec) + " s",
          rec <= 10);
    }
    b.append('\n');
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
