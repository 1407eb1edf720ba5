package io.levee.rules.policy.adaptive;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Accumulates the calls of the current window from many threads, and drains them into a {@link
 * WindowSample} when the window closes.
 *
 * <p>Concurrency: any thread records; one thread at a time drains (the limiter's window CAS
 * guarantees it). Every counter is reset by an atomic get-and-reset, so a call recorded while a
 * drain is running lands in this window or the next, never in neither; its latency and its bucket
 * may straddle the boundary, which skews one window by one call and is accepted. Nothing allocates
 * once the adders have grown their cells.
 */
final class WindowRecorder {
  /**
   * How long the most threads that asked in one window are remembered ({@link
   * WindowSample#setThreadsLately}): as long as Tomcat keeps an idle worker thread by default.
   */
  static final long THREADS_MEMORY_NANOS = 60_000_000_000L;

  private final AtomicLongArray buckets = new AtomicLongArray(WindowSample.BUCKETS);
  private final LongAdder events = new LongAdder();
  private final LongAdder rttSum = new LongAdder();
  private final LongAdder drops = new LongAdder();
  private final LongAdder refused = new LongAdder();
  private final LongAdder refusedBelowLimit = new LongAdder();
  private final LongAdder threads = new LongAdder();
  private final LongAdder threadsAgain = new LongAdder();
  private final AtomicLong minRtt = new AtomicLong(Long.MAX_VALUE);
  private final AtomicInteger maxInFlight = new AtomicInteger();

  /** The most threads that asked in one window counted afresh, and when; drainer only. */
  private int mostThreads;

  private long mostThreadsAt;

  void record(long rttNanos, boolean dropped) {
    events.increment();
    if (dropped) {
      drops.increment();
      return;
    }
    long rtt = Math.max(0, rttNanos);
    buckets.incrementAndGet(WindowSample.bucket(rtt));
    rttSum.add(rtt);
    long min = minRtt.get();
    while (rtt < min && !minRtt.compareAndSet(min, rtt)) {
      min = minRtt.get();
    }
  }

  /**
   * A call the limit turned away; {@code belowLimit}: with fewer calls than the limit in flight.
   */
  void refused(boolean belowLimit) {
    refused.increment();
    if (belowLimit) {
      refusedBelowLimit.increment();
    }
  }

  /** A thread asked for the first time in this window. */
  void threadSeen() {
    threads.increment();
  }

  /** A thread asked for the second time in this window. */
  void threadSeenAgain() {
    threadsAgain.increment();
  }

  /** Notes that {@code inFlight} calls are in flight right now. */
  void inFlight(int inFlight) {
    int max = maxInFlight.get();
    while (inFlight > max && !maxInFlight.compareAndSet(max, inFlight)) {
      max = maxInFlight.get();
    }
  }

  /** Calls completed (with or without failure) since the last drain. */
  long events() {
    return events.sum();
  }

  /**
   * Moves everything recorded since the last drain into {@code sample}, which is reset first.
   * {@code inFlightNow} seeds the next window's maximum: calls still running belong to it too.
   * {@code nowNanos} dates the threads counted, for {@link WindowSample#setThreadsLately}.
   */
  void drainTo(WindowSample sample, int inFlightNow, boolean threadsAfresh, long nowNanos) {
    sample.reset();
    for (int i = 0; i < WindowSample.BUCKETS; i++) {
      if (buckets.get(i) != 0) {
        sample.addBucket(i, buckets.getAndSet(i, 0));
      }
    }
    events.reset();
    sample.setTotals(
        rttSum.sumThenReset(), minRtt.getAndSet(Long.MAX_VALUE), (int) drops.sumThenReset());
    sample.setRefused((int) refused.sumThenReset());
    sample.setRefusedBelowLimit((int) refusedBelowLimit.sumThenReset());
    int asked = (int) threads.sumThenReset();
    sample.setThreads(asked, (int) threadsAgain.sumThenReset(), threadsAfresh);
    if (threadsAfresh
        && (asked >= mostThreads || nowNanos - mostThreadsAt > THREADS_MEMORY_NANOS)) {
      mostThreads = asked;
      mostThreadsAt = nowNanos;
    }
    sample.setThreadsLately(mostThreads);
    sample.setMaxInFlight(maxInFlight.getAndSet(inFlightNow));
  }
}
