package io.levee.demo.driver;

/**
 * Latencies in logarithmic buckets, about 4% wide, from 0.1 ms to about 2 minutes: enough to read a
 * p99 to two digits without keeping every sample. Not thread-safe; {@link RowStats} guards it.
 */
public final class Histogram {
  private static final double BASE_MICROS = 100;
  private static final double GROWTH = 1.04;
  private static final int BUCKETS = 360;

  private final long[] counts = new long[BUCKETS];
  private long total;

  public void record(long nanos) {
    double micros = Math.max(nanos / 1_000.0, BASE_MICROS);
    int bucket = (int) (Math.log(micros / BASE_MICROS) / Math.log(GROWTH));
    counts[Math.min(bucket, BUCKETS - 1)]++;
    total++;
  }

  public void add(Histogram other) {
    for (int i = 0; i < BUCKETS; i++) {
      counts[i] += other.counts[i];
    }
    total += other.total;
  }

  public long count() {
    return total;
  }

  /**
   * The latency at quantile {@code q} (0..1) in milliseconds, the upper edge of its bucket; -1 if
   * empty.
   */
  public double percentileMillis(double q) {
    if (total == 0) {
      return -1;
    }
    long rank = (long) Math.ceil(q * total);
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return BASE_MICROS * Math.pow(GROWTH, i + 1) / 1_000.0;
      }
    }
    return BASE_MICROS * Math.pow(GROWTH, BUCKETS) / 1_000.0;
  }
}
