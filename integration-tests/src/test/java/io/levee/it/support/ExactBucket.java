package io.levee.it.support;

import java.util.List;

/**
 * What an exact token bucket admits of requests arriving at given times: the reference the rate
 * tests compare the agent with. With evenly spaced arrivals it is {@code rate x time + burst}; when
 * a stalled JVM lets requests arrive in clumps it is lower, because a full bucket drops the tokens
 * of a pause, and comparing with it keeps a loaded machine from failing a correct limiter.
 */
public final class ExactBucket {
  private ExactBucket() {}

  /** Arrival times in nanoseconds (any origin), in order. */
  public static long admitted(List<Long> arrivals, double perSecond, double burst) {
    double tokens = burst;
    long last = arrivals.isEmpty() ? 0 : arrivals.get(0);
    long admitted = 0;
    for (long t : arrivals) {
      tokens = Math.min(burst, tokens + (t - last) / 1e9 * perSecond);
      last = t;
      if (tokens >= 1) {
        tokens -= 1;
        admitted++;
      }
    }
    return admitted;
  }
}
