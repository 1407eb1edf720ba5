package io.levee.rules.policy.adaptive.sim;

/**
 * Netflix concurrency-limits {@code Gradient2Limit} inside a {@code WindowedLimit} (1 s windows of
 * at least 10 samples, average latency, maximum in-flight) behind a {@code SimpleLimiter}, ported
 * rule for rule from the library (v0.5.4) so the simulation can compare against it.
 */
final class Gradient2 implements Admission {
  private static final long WINDOW_NANOS = 1_000_000_000L;
  private static final int MIN_SAMPLES = 10;

  private final int minLimit;
  private final int maxLimit;
  private double estimate;
  private double longRtt;
  private int longCount;
  private int inFlight;
  private long windowStart = -1;
  private int samples;
  private double rttSum;
  private int maxInFlight;

  Gradient2(int minLimit, int maxLimit, int initial) {
    this.minLimit = minLimit;
    this.maxLimit = maxLimit;
    this.estimate = initial;
  }

  /** The library's defaults: initial 20, min 20, max 200. */
  static Gradient2 defaults() {
    return new Gradient2(20, 200, 20);
  }

  @Override
  public boolean tryAcquire(long now) {
    if (windowStart < 0) {
      windowStart = now;
    }
    if (inFlight >= (int) estimate) {
      return false;
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    return true;
  }

  @Override
  public void release(long now, long rttNanos) {
    inFlight--;
    samples++;
    rttSum += rttNanos;
    if (now - windowStart >= WINDOW_NANOS && samples >= MIN_SAMPLES) {
      update(rttSum / samples, maxInFlight);
      windowStart = now;
      samples = 0;
      rttSum = 0;
      maxInFlight = inFlight;
    }
  }

  private void update(double shortRtt, int inflight) {
    if (longCount < 10) {
      longCount++;
      longRtt = longRtt + (shortRtt - longRtt) / longCount;
    } else {
      longRtt = longRtt * (1 - 2.0 / 601) + shortRtt * 2.0 / 601;
    }
    if (longRtt / shortRtt > 2) {
      longRtt *= 0.95;
    }
    if (inflight < estimate / 2) {
      return;
    }
    double gradient = Math.max(0.5, Math.min(1.0, 1.5 * longRtt / shortRtt));
    double next = estimate * gradient + 4;
    next = estimate * 0.8 + next * 0.2;
    estimate = Math.max(minLimit, Math.min(maxLimit, next));
  }

  @Override
  public void cpu(long now, double load) {}

  @Override
  public int limit() {
    return (int) estimate;
  }
}
