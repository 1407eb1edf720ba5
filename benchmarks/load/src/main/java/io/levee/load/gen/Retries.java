package io.levee.load.gen;

import java.util.concurrent.ThreadLocalRandom;

/**
 * How a client of {@link OpenLoop} retries a call that was rejected (429/503) or timed out: how
 * many attempts in all, and how long it waits before each retry.
 *
 * @param attempts attempts in all, the first included (1: no retry)
 * @param baseNanos the wait before the first retry is drawn from 0 to this (0: at once)
 * @param exponential each later retry doubles the range the wait is drawn from (full jitter)
 */
public record Retries(int attempts, long baseNanos, boolean exponential) {
  /** No retries. */
  public static final Retries NONE = new Retries(1, 0, false);

  /** One retry after 0-50 ms. */
  public static final Retries ONCE = new Retries(2, 50_000_000L, false);

  /**
   * Exponential back-off with full jitter (the AWS client's): up to two retries, after 0-100 ms,
   * then 0-200 ms.
   */
  public static final Retries BACKOFF = new Retries(3, 100_000_000L, true);

  /** An aggressive client: up to two retries, each at once. */
  public static final Retries AGGRESSIVE = new Retries(3, 0, false);

  /** Whether a call whose attempt {@code attempt} (0 the first) failed is sent again. */
  boolean again(int attempt) {
    return attempt + 1 < attempts;
  }

  /** The wait before retry number {@code retry} (1 the first), drawn at random. */
  long delayNanos(int retry) {
    if (baseNanos == 0) {
      return 0;
    }
    long range = exponential ? baseNanos << Math.min(20, retry - 1) : baseNanos;
    return ThreadLocalRandom.current().nextLong(range);
  }
}
