package io.levee.it.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One scenario of {@link ClusterAccuracyBenchmark}, second by second: what the fleet offered, what
 * the partner received (the fleet's admitted calls) and what each instance says it got; and the
 * figures the benchmark reports from its measured seconds (the warm-up before them is recorded and
 * plotted, never counted).
 *
 * <p>The bound is on 10-s windows: the fleet admits between 0.9 R and 1.05 R per second,
 * plus one burst, over every 10 s in which more than R is offered. Windows slide by one second, so
 * 30 measured seconds hold 21 of them.
 */
final class AccuracySeries {
  static final int WINDOW = 10;
  static final double LOW = 0.9;
  static final double HIGH = 1.05;

  final int instances;
  final String scenario;
  final double rate;
  final double burst;
  final int warmUp;
  final int measured;

  /**
   * Indexed by second of the run, warm-up first: the calls per second instance {@code i} was set to
   * offer, and the calls the partner received.
   */
  final double[][] offeredBy;

  final int[] received;

  /**
   * Calls instance {@code i} counted as answered in second {@code s}, read from it at each second's
   * end: a few milliseconds off the partner's seconds.
   */
  final long[][] admittedBy;

  long blocked;
  long errors;

  AccuracySeries(
      int instances, String scenario, double rate, double burst, int warmUp, int measured) {
    this.instances = instances;
    this.scenario = scenario;
    this.rate = rate;
    this.burst = burst;
    this.warmUp = warmUp;
    this.measured = measured;
    this.offeredBy = new double[instances][warmUp + measured];
    this.received = new int[warmUp + measured];
    this.admittedBy = new long[instances][warmUp + measured];
  }

  int seconds() {
    return warmUp + measured;
  }

  double offered(int s) {
    double sum = 0;
    for (double[] by : offeredBy) {
      sum += by[s];
    }
    return sum;
  }

  /** Mean admitted per second over the measured seconds, as a fraction of the rate. */
  double mean() {
    return sum(warmUp, measured) / measured / rate;
  }

  /**
   * The lowest mean admitted per second of any 10-s window of the measured seconds, over R; NaN
   * when fewer than 10 s were measured.
   */
  double windowMin() {
    double min = Double.NaN;
    for (int s = warmUp; s + WINDOW <= seconds(); s++) {
      min = Double.isNaN(min) ? window(s) : Math.min(min, window(s));
    }
    return min;
  }

  double windowMax() {
    double max = Double.NaN;
    for (int s = warmUp; s + WINDOW <= seconds(); s++) {
      max = Double.isNaN(max) ? window(s) : Math.max(max, window(s));
    }
    return max;
  }

  private double window(int from) {
    return sum(from, WINDOW) / WINDOW / rate;
  }

  /** The upper bound of a window's mean over R: 1.05 R per second plus one burst in the window. */
  double windowHigh() {
    return HIGH + burst / WINDOW / rate;
  }

  /** False also when no window was measured. */
  boolean withinBound() {
    return windowMin() >= LOW && windowMax() <= windowHigh();
  }

  double secondMin() {
    double min = Double.POSITIVE_INFINITY;
    for (int s = warmUp; s < seconds(); s++) {
      min = Math.min(min, received[s] / rate);
    }
    return min;
  }

  double secondMax() {
    double max = Double.NEGATIVE_INFINITY;
    for (int s = warmUp; s < seconds(); s++) {
      max = Math.max(max, received[s] / rate);
    }
    return max;
  }

  /** Instance {@code i}'s mean admitted per second over measured seconds {@code [from, to)}. */
  double instanceMean(int i, int from, int to) {
    double sum = 0;
    for (int s = warmUp + from; s < warmUp + to; s++) {
      sum += admittedBy[i][s];
    }
    return sum / (to - from);
  }

  /**
   * The mean admitted per second of the 10 s ending with second {@code s}, over R; NaN if fewer.
   */
  double trailingWindow(int s) {
    return s + 1 - WINDOW < warmUp ? Double.NaN : window(s + 1 - WINDOW);
  }

  private double sum(int from, int count) {
    double sum = 0;
    for (int s = from; s < from + count; s++) {
      sum += received[s];
    }
    return sum;
  }

  /**
   * One row per second: second (from the first measured one; negative in the warm-up), phase,
   * offered and admitted calls per second, admitted over R, the trailing 10-s window over R, then
   * each instance's offered and admitted calls.
   */
  void writeCsv(Path file) throws IOException {
    StringBuilder b = new StringBuilder("second,phase,offered,admitted,admitted_r,window10_r");
    for (int i = 0; i < instances; i++) {
      b.append(",offered_").append(i).append(",admitted_").append(i);
    }
    b.append('\n');
    for (int s = 0; s < seconds(); s++) {
      double window = trailingWindow(s);
      b.append(
          String.format(
              Locale.ROOT,
              "%d,%s,%.0f,%d,%.4f,%s",
              s - warmUp,
              s < warmUp ? "warm-up" : "measured",
              offered(s),
              received[s],
              received[s] / rate,
              Double.isNaN(window) ? "" : String.format(Locale.ROOT, "%.4f", window)));
      for (int i = 0; i < instances; i++) {
        b.append(',')
            .append(String.format(Locale.ROOT, "%.0f", offeredBy[i][s]))
            .append(',')
            .append(admittedBy[i][s]);
      }
      b.append('\n');
    }
    Files.writeString(file, b);
  }
}
