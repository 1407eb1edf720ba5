package io.levee.load.bench;

import io.levee.load.gen.Phase;
import io.levee.load.gen.Series;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The numbers of one run of one scenario, by name. Goodput is 2xx answers within the deadline per
 * second, as a fraction of C. Convergence after a step is the time until every later second of the
 * phase has its goodput within ±10 % of the phase's final level (mean of its last 3 s) and its
 * admitted p99 within the deadline; it is NaN ("never") when no such second comes. Oscillation is
 * the coefficient of variation and the peak-to-peak of the limit over the second half of the
 * overload.
 */
final class Metrics {
  private Metrics() {}

  static Map<String, Double> of(String scenario, List<Phase> phases, Series s, double c) {
    int[] at = starts(phases);
    Map<String, Double> m = new LinkedHashMap<>();
    switch (scenario) {
      case "step" -> {
        Window low = new Window(s, "cpu", at[1], at[2]);
        Window high = new Window(s, "cpu", at[2], at[3]);
        Window after = new Window(s, "cpu", at[3], at[4]);
        m.put("goodput at 2C (× C)", high.goodPerSecond() / c);
        m.put("admitted p50 at 2C (ms)", high.millis(50));
        m.put("admitted p99 at 2C (ms)", high.millis(99));
        m.put("reject ratio at 2C", high.rejectRatio());
        // The first second after the drop drains the 2C phase's calls, for every contender alike.
        Window afterDrain = new Window(s, "cpu", Math.min(at[3] + 1, at[4]), at[4]);
        m.put("rejects at 0.5C", (double) (low.rejected + afterDrain.rejected));
        m.put(
            "converge after 0.5C→2C (s)",
            converge(s, "cpu", at[2], at[3], Scenarios.CPU_DEADLINE_MS));
        m.put(
            "converge after 2C→0.5C (s)",
            converge(s, "cpu", at[3], at[4], Scenarios.CPU_DEADLINE_MS));
        m.put(
            "goodput 3 s average settles after 0.5C→2C (s)",
            convergeAverage(s, "cpu", at[2], at[3]));
        m.put(
            "goodput 3 s average settles after 2C→0.5C (s)",
            convergeAverage(s, "cpu", at[3], at[4]));
        m.put("limit settles after 0.5C→2C (s)", limitSettles(s, at[2], at[3]));
        oscillation(m, s, at[2], at[3]);
      }
      case "slow-io" -> {
        Window base = new Window(s, "cpu", at[1], at[2]);
        Window slow = new Window(s, "cpu", at[2], at[3]);
        Window ioSlow = new Window(s, "io", at[2], at[3]);
        m.put(
            "/cpu goodput while slow (× before)",
            base.good == 0 ? Double.NaN : slow.goodPerSecond() / base.goodPerSecond());
        m.put("/cpu p99 before (ms)", base.millis(99));
        m.put("/cpu p99 while slow (ms)", slow.millis(99));
        m.put("/cpu reject ratio while slow", slow.rejectRatio());
        m.put("/io goodput while slow (× offered)", ioSlow.good / (double) ioSlow.offered);
        m.put("/io reject ratio while slow", ioSlow.rejectRatio());
        m.put(
            "rejects before the slowdown",
            (double) (base.rejected + new Window(s, "io", at[1], at[2]).rejected));
        oscillation(m, s, at[2], at[3]);
      }
      case "retry", "retry-backoff", "retry-aggressive" -> {
        Window storm = new Window(s, "cpu", at[1], at[2]);
        Window after = new Window(s, "cpu", at[2], at[3]);
        m.put("goodput at 3C (× C)", storm.goodPerSecond() / c);
        m.put("admitted p99 at 3C (ms)", storm.millis(99));
        m.put("reject ratio at 3C", storm.rejectRatio());
        m.put("retries at 3C (× offered)", storm.retries / (double) storm.offered);
        m.put("goodput at 0.7C (× offered)", after.good / (double) after.offered);
        m.put("recovery to 95 % after 3C→0.7C (s)", recovery(s, at[2], at[3], 0.7 * c));
        oscillation(m, s, at[1], at[2]);
      }
      case Priorities.SCENARIO -> priorities(m, s, at, c);
      default -> throw new IllegalArgumentException(scenario);
    }
    return m;
  }

  /**
   * Per kind at 2C: its offered load and goodput as fractions of C, its goodput as a fraction of
   * what it offered, and its reject ratio; then the same for all three kinds together.
   */
  private static void priorities(Map<String, Double> m, Series s, int[] at, double c) {
    for (String kind : Priorities.KINDS) {
      Window w = new Window(s, kind, at[2], at[3]);
      m.put(kind + " offered at 2C (× C)", w.offered / (double) w.seconds / c);
      m.put(kind + " goodput at 2C (× C)", w.goodPerSecond() / c);
      m.put(kind + " goodput at 2C (× offered)", w.good / (double) w.offered);
      m.put(kind + " reject ratio at 2C", w.rejectRatio());
    }
    List<String> all = Priorities.KINDS;
    Window high = new Window(s, all, at[2], at[3]);
    m.put("goodput at 2C (× C)", high.goodPerSecond() / c);
    m.put("admitted p99 at 2C (ms)", high.millis(99));
    m.put("reject ratio at 2C", high.rejectRatio());
    Window afterDrain = new Window(s, all, Math.min(at[3] + 1, at[4]), at[4]);
    m.put(
        "rejects at 0.5C",
        (double) (new Window(s, all, at[1], at[2]).rejected + afterDrain.rejected));
    oscillation(m, s, at[2], at[3]);
  }

  static int[] starts(List<Phase> phases) {
    int[] at = new int[phases.size() + 1];
    for (int i = 0; i < phases.size(); i++) {
      at[i + 1] = at[i] + phases.get(i).seconds();
    }
    return at;
  }

  static double converge(Series s, String stream, int from, int to, long deadlineMs) {
    int tail = Math.max(from, to - 3);
    double fin = new Window(s, stream, tail, to).goodPerSecond();
    if (fin <= 0) {
      return Double.NaN;
    }
    for (int first = from; first < to; first++) {
      boolean ok = true;
      for (int i = first; i < to && ok; i++) {
        Window w = new Window(s, stream, i, i + 1);
        double p99 = w.millis(99);
        ok = Math.abs(w.goodPerSecond() - fin) <= 0.1 * fin && p99 <= deadlineMs;
      }
      if (ok) {
        return first - from;
      }
    }
    return Double.NaN;
  }

  /**
   * Seconds from the phase's start until the 3 s moving average of goodput (the seconds of this
   * phase up to and including that one, at most three) stays within ±10 % of the phase's final
   * level, the mean of its last 3 s. At a few calls in flight on one core a single second's goodput
   * moves too much to judge alone; {@link #converge} judges each second and is reported too.
   */
  static double convergeAverage(Series s, String stream, int from, int to) {
    double fin = new Window(s, stream, Math.max(from, to - 3), to).goodPerSecond();
    if (fin <= 0) {
      return Double.NaN;
    }
    for (int first = from; first < to; first++) {
      boolean ok = true;
      for (int i = first; i < to && ok; i++) {
        double avg = new Window(s, stream, Math.max(from, i - 2), i + 1).goodPerSecond();
        ok = Math.abs(avg - fin) <= 0.1 * fin;
      }
      if (ok) {
        return first - from;
      }
    }
    return Double.NaN;
  }

  /**
   * Seconds from the phase's start until the limit settles: from that second to the phase's end its
   * peak-to-peak stays within 20 % of its mean. NaN for a contender without a limit.
   */
  static double limitSettles(Series s, int from, int to) {
    for (int first = from; first < to; first++) {
      double sum = 0;
      double lo = Double.MAX_VALUE;
      double hi = -1;
      int n = 0;
      for (int i = first; i < to; i++) {
        if (Double.isNaN(s.limitMean[i])) {
          continue;
        }
        sum += s.limitMean[i];
        lo = Math.min(lo, s.limitMin[i]);
        hi = Math.max(hi, s.limitMax[i]);
        n++;
      }
      if (n == 0) {
        return Double.NaN;
      }
      if (hi - lo <= 0.2 * (sum / n)) {
        return first - from;
      }
    }
    return Double.NaN;
  }

  /**
   * Seconds after the fall until goodput stays at 95 % of the offered rate for the rest of the
   * phase.
   */
  static double recovery(Series s, int from, int to, double rate) {
    for (int first = from; first < to; first++) {
      boolean ok = true;
      for (int i = first; i < to && ok; i++) {
        ok = new Window(s, "cpu", i, i + 1).good >= 0.95 * rate;
      }
      if (ok) {
        return first - from;
      }
    }
    return Double.NaN;
  }

  private static void oscillation(Map<String, Double> m, Series s, int from, int to) {
    double sum = 0;
    double sq = 0;
    double lo = Double.MAX_VALUE;
    double hi = -1;
    int n = 0;
    for (int i = from + (to - from) / 2; i < to; i++) {
      if (Double.isNaN(s.limitMean[i])) {
        continue;
      }
      sum += s.limitMean[i];
      sq += s.limitMean[i] * s.limitMean[i];
      lo = Math.min(lo, s.limitMin[i]);
      hi = Math.max(hi, s.limitMax[i]);
      n++;
    }
    if (n == 0) {
      m.put("limit (mean)", Double.NaN);
      m.put("limit CoV", Double.NaN);
      m.put("limit peak-to-peak", Double.NaN);
      return;
    }
    double mean = sum / n;
    double sd = Math.sqrt(Math.max(0, sq / n - mean * mean));
    m.put("limit (mean)", mean);
    m.put("limit CoV", mean == 0 ? Double.NaN : sd / mean);
    m.put("limit peak-to-peak", hi - lo);
  }
}
