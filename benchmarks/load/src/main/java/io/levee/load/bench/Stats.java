package io.levee.load.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Median and spread of a few runs' values; NaN ("never", "none") sorts last and is shown as such.
 */
final class Stats {
  private Stats() {}

  static double median(List<Double> values) {
    List<Double> v = new ArrayList<>(values);
    Collections.sort(v);
    if (v.isEmpty()) {
      return Double.NaN;
    }
    int n = v.size();
    return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
  }

  /** "median (min–max)", or the one value of a single run. */
  static String show(List<Double> values) {
    if (values.size() == 1) {
      return num(values.get(0));
    }
    List<Double> v = new ArrayList<>(values);
    Collections.sort(v);
    return num(median(values)) + " (" + num(v.get(0)) + "–" + num(v.get(v.size() - 1)) + ")";
  }

  static String num(double d) {
    if (Double.isNaN(d)) {
      return "—";
    }
    if (Math.abs(d) >= 100 || d == Math.rint(d)) {
      return String.format(Locale.ROOT, "%.0f", d);
    }
    if (Math.abs(d) >= 10) {
      return String.format(Locale.ROOT, "%.1f", d);
    }
    return String.format(Locale.ROOT, "%.2f", d);
  }
}
