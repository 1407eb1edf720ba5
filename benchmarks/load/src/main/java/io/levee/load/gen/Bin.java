package io.levee.load.gen;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/** What one stream saw in one second (by intended send time). Latencies in microseconds. */
public final class Bin {
  public final LongAdder offered = new LongAdder();
  public final LongAdder retries = new LongAdder();
  public final LongAdder good = new LongAdder();
  public final LongAdder late = new LongAdder();
  public final LongAdder rejected = new LongAdder();
  public final LongAdder timeouts = new LongAdder();
  public final LongAdder errors = new LongAdder();

  /** Latency of the answered (2xx) calls, from the intended send time. */
  public final Histogram admitted = new Histogram(60_000_000L, 2);

  public synchronized void recordAdmitted(long micros) {
    admitted.recordValue(Math.min(micros, admitted.getHighestTrackableValue()));
  }

  public synchronized Histogram copy() {
    return admitted.copy();
  }
}
