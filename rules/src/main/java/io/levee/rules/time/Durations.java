package io.levee.rules.time;

import java.math.BigDecimal;
import java.util.concurrent.TimeUnit;

/** Durations written the way the rules file writes them, for messages and log lines. */
public final class Durations {
  private Durations() {}

  /** Nanoseconds as the largest whole unit: 1s, 250ms, 2m; 0.5ms below a millisecond. */
  public static String format(long nanos) {
    if (nanos % TimeUnit.HOURS.toNanos(1) == 0 && nanos > 0) {
      return TimeUnit.NANOSECONDS.toHours(nanos) + "h";
    }
    if (nanos % TimeUnit.MINUTES.toNanos(1) == 0 && nanos > 0) {
      return TimeUnit.NANOSECONDS.toMinutes(nanos) + "m";
    }
    if (nanos % TimeUnit.SECONDS.toNanos(1) == 0) {
      return TimeUnit.NANOSECONDS.toSeconds(nanos) + "s";
    }
    return BigDecimal.valueOf(nanos).movePointLeft(6).stripTrailingZeros().toPlainString() + "ms";
  }
}
