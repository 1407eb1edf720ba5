package io.levee.load.gen;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A run's per-second record: one {@link Bin} per stream and second, and the contender's limit as
 * sampled during that second (NaN when it has none to read).
 */
public final class Series {
  public final int seconds;
  public final Map<String, Bin[]> streams = new LinkedHashMap<>();
  public final double[] limitMean;
  public final double[] limitMin;
  public final double[] limitMax;

  /**
   * The CPU time the generator's JVM (sender, client, stub) used in each second, as a fraction of
   * one CPU; NaN where it was not read. Near 1 on its one pinned CPU, the generator itself is the
   * bottleneck: requests leave late and answers are read late, whatever the server does.
   */
  public final double[] generatorCpu;

  private final double[] limitSum;
  private final int[] limitCount;

  public Series(int seconds, Iterable<String> streamNames) {
    this.seconds = seconds;
    for (String name : streamNames) {
      Bin[] bins = new Bin[seconds];
      for (int i = 0; i < seconds; i++) {
        bins[i] = new Bin();
      }
      streams.put(name, bins);
    }
    limitMean = new double[seconds];
    limitMin = new double[seconds];
    limitMax = new double[seconds];
    limitSum = new double[seconds];
    limitCount = new int[seconds];
    java.util.Arrays.fill(limitMean, Double.NaN);
    generatorCpu = new double[seconds];
    java.util.Arrays.fill(generatorCpu, Double.NaN);
  }

  public Bin bin(String stream, int second) {
    Bin[] bins = streams.get(stream);
    return second >= 0 && second < seconds ? bins[second] : null;
  }

  public synchronized void recordLimit(int second, double limit) {
    if (second < 0 || second >= seconds || limit < 0) {
      return;
    }
    if (limitCount[second] == 0) {
      limitMin[second] = limit;
      limitMax[second] = limit;
    }
    limitSum[second] += limit;
    limitCount[second]++;
    limitMin[second] = Math.min(limitMin[second], limit);
    limitMax[second] = Math.max(limitMax[second], limit);
    limitMean[second] = limitSum[second] / limitCount[second];
  }
}
