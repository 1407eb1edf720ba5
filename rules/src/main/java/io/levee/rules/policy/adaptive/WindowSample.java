package io.levee.rules.policy.adaptive;

/**
 * What one closed window of calls looked like, as a {@link LimitAlgorithm} reads it. Reusable: the
 * limiter owns one instance and refills it every window, so summarising allocates nothing.
 *
 * <p>Latencies are kept in a small log-bucket histogram (8 buckets per power of two, about 9 %
 * wide, from 1 µs to 18 minutes), enough for a cheap percentile. Failed calls ("drops") are counted
 * apart and never enter the latency statistics: a failure that returns at once would otherwise look
 * like a fast, healthy call.
 *
 * <p>Not thread-safe: one thread fills it, then the same thread hands it to the algorithm.
 */
public final class WindowSample {
  private static final int MIN_EXP = 10;
  private static final int MAX_EXP = 40;
  private static final int SUB_BITS = 3;
  private static final int SUBS = 1 << SUB_BITS;
  static final int BUCKETS = 2 + (MAX_EXP - MIN_EXP) * SUBS;

  /** The share of a window that threads held back by themselves are busy, at least. */
  static final double BUSY_SHARE = 0.8;

  private final long[] buckets = new long[BUCKETS];
  private int samples;
  private long rttSumNanos;
  private long minRttNanos;
  private int drops;
  private int refused;
  private int refusedBelowLimit;
  private int maxInFlight;
  private int threads;
  private int threadsAgain;
  private boolean threadsAfresh;
  private int threadsLately;
  private double cpu;
  private double cpuTarget;
  private long windowNanos;

  public WindowSample() {
    reset();
  }

  /** Empties the sample for the next window. */
  public WindowSample reset() {
    for (int i = 0; i < BUCKETS; i++) {
      buckets[i] = 0;
    }
    samples = 0;
    rttSumNanos = 0;
    minRttNanos = Long.MAX_VALUE;
    drops = 0;
    refused = 0;
    refusedBelowLimit = 0;
    maxInFlight = 0;
    threads = 0;
    threadsAgain = 0;
    threadsAfresh = false;
    threadsLately = 0;
    cpu = 0;
    cpuTarget = 1;
    windowNanos = 0;
    return this;
  }

  /** One call that completed without failure in {@code rttNanos}. */
  public WindowSample record(long rttNanos) {
    buckets[bucket(rttNanos)]++;
    samples++;
    rttSumNanos += Math.max(0, rttNanos);
    minRttNanos = Math.min(minRttNanos, rttNanos);
    return this;
  }

  /** One call that failed or timed out: a sign of congestion, not a latency. */
  public WindowSample drop() {
    drops++;
    return this;
  }

  /** Calls the limit turned away during the window. */
  public WindowSample setRefused(int refused) {
    this.refused = refused;
    return this;
  }

  /** Of {@link #refused()}, those turned away with fewer calls than the limit in flight. */
  public WindowSample setRefusedBelowLimit(int refusedBelowLimit) {
    this.refusedBelowLimit = refusedBelowLimit;
    return this;
  }

  public WindowSample setMaxInFlight(int maxInFlight) {
    this.maxInFlight = maxInFlight;
    return this;
  }

  /**
   * The threads the caller saw ask during the window, and of them those that asked more than once;
   * 0 when the caller does not say. {@code afresh}: counted in this window alone, not on from the
   * window before ({@link LimitAlgorithm#countsThreadsOn}).
   */
  public WindowSample setThreads(int threads, int again, boolean afresh) {
    this.threads = threads;
    this.threadsAgain = again;
    this.threadsAfresh = afresh;
    return this;
  }

  /**
   * The most threads that asked in one window counted afresh lately, this one included; 0 when the
   * caller does not say ({@link #threadBound}).
   */
  public WindowSample setThreadsLately(int threadsLately) {
    this.threadsLately = threadsLately;
    return this;
  }

  public WindowSample setCpu(double cpu, double cpuTarget) {
    this.cpu = cpu;
    this.cpuTarget = cpuTarget;
    return this;
  }

  public WindowSample setWindowNanos(long windowNanos) {
    this.windowNanos = windowNanos;
    return this;
  }

  /** Calls that completed without failure, each with a latency sample. */
  public int samples() {
    return samples;
  }

  /** Calls that failed or timed out. */
  public int drops() {
    return drops;
  }

  /** Calls the limit turned away during the window. */
  public int refused() {
    return refused;
  }

  /**
   * Of {@link #refused()}, those turned away with fewer calls than the limit in flight: the top of
   * the limit kept for other classes of calls ({@link ClassReserve}).
   */
  public int refusedBelowLimit() {
    return refusedBelowLimit;
  }

  /** The fraction of completed calls that failed, 0 when nothing completed. */
  public double dropRate() {
    int total = samples + drops;
    return total == 0 ? 0 : (double) drops / total;
  }

  /** 0 when there is no sample. */
  public long averageRttNanos() {
    return samples == 0 ? 0 : rttSumNanos / samples;
  }

  /** 0 when there is no sample. */
  public long minRttNanos() {
    return samples == 0 ? 0 : minRttNanos;
  }

  /**
   * The latency below which a fraction {@code q} (0..1) of the samples fall, to the histogram's
   * resolution (the middle of the bucket); 0 when there is no sample.
   */
  public long percentileRttNanos(double q) {
    if (samples == 0) {
      return 0;
    }
    long rank = Math.max(1, (long) Math.ceil(q * samples));
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += buckets[i];
      if (seen >= rank) {
        return bucketValue(i);
      }
    }
    return bucketValue(BUCKETS - 1);
  }

  /** The most calls in flight at once during the window. */
  public int maxInFlight() {
    return maxInFlight;
  }

  /**
   * How many threads asked for a permit during the window, as the caller counted them ({@link
   * AdaptiveLimiter#threadAsked}); 0 when the caller does not count them.
   */
  public int threads() {
    return threads;
  }

  /** Of {@link #threads()}, those that asked more than once in the window. */
  public int threadsAgain() {
    return threadsAgain;
  }

  /**
   * Whether the caller's worker threads held the calls back: counted afresh, the threads that asked
   * were the calls in flight at most (no more, and no fewer than nine tenths of them), most of them
   * asked again, and they were busy for most of the window ({@link #busy()}: four fifths of the
   * threads or more). Threads that serve calls back to back all ask, each as it finishes a call,
   * and a window lasts about twice the latency; a pool that hands each call to the thread idle
   * longest gives each call a thread of its own, and one thread asks twice only once the pool has
   * gone round, which a small pool does at any load: then its threads are busy only part of the
   * time. And no window lately had more threads ask than this one's calls in flight ({@link
   * #setThreadsLately}): a pool seen that large can take more calls than these, however few of its
   * threads these took (a pool whose idle threads wait on a lock hands a call to the thread that
   * just finished one as often as to the one idle longest).
   */
  public boolean threadBound() {
    return threadsAfresh
        && threads > 0
        && threads <= maxInFlight
        && threads >= 0.9 * maxInFlight
        && threadsAgain * 2 >= threads
        && busy() >= BUSY_SHARE * threads
        && threadsLately <= maxInFlight + 1; // a window closing mid-count skews it by one
  }

  /**
   * How many calls were running on average during the window, as Little's law has it: the latencies
   * of the calls completed in it over its length (calls that straddle its ends even out over
   * windows); 0 for a window of no length.
   */
  public double busy() {
    return windowNanos == 0 ? 0 : (double) rttSumNanos / windowNanos;
  }

  /** Smoothed process CPU load, 0..1, read when the window closed. */
  public double cpu() {
    return cpu;
  }

  /** The resource's {@code cpu-target}, 0..1. */
  public double cpuTarget() {
    return cpuTarget;
  }

  /** How long the window lasted. */
  public long windowNanos() {
    return windowNanos;
  }

  /** Adds a bucket count drained from a concurrent recorder, keeping totals consistent. */
  void addBucket(int bucket, long count) {
    buckets[bucket] += count;
    samples += (int) count;
  }

  void setTotals(long rttSumNanos, long minRttNanos, int drops) {
    this.rttSumNanos = rttSumNanos;
    this.minRttNanos = minRttNanos;
    this.drops = drops;
  }

  /** The histogram bucket of a latency; shared with the concurrent recorder. */
  static int bucket(long nanos) {
    if (nanos < (1L << MIN_EXP)) {
      return 0;
    }
    int exp = 63 - Long.numberOfLeadingZeros(nanos);
    if (exp >= MAX_EXP) {
      return BUCKETS - 1;
    }
    int sub = (int) (nanos >>> (exp - SUB_BITS)) & (SUBS - 1);
    return 1 + (exp - MIN_EXP) * SUBS + sub;
  }

  /** The latency a bucket stands for: the middle of its range. */
  static long bucketValue(int bucket) {
    if (bucket == 0) {
      return (1L << MIN_EXP) / 2;
    }
    if (bucket == BUCKETS - 1) {
      return 1L << MAX_EXP;
    }
    int exp = MIN_EXP + (bucket - 1) / SUBS;
    int sub = (bucket - 1) % SUBS;
    long width = 1L << (exp - SUB_BITS);
    return (SUBS + sub) * width + width / 2;
  }
}
