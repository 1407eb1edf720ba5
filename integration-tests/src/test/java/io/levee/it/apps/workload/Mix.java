package io.levee.it.apps.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;

/**
 * How a workload spreads its calls over modes, from {@code mix=ok:40,blocked:40,...}: call {@code
 * i} takes the mode at {@code i % total} of the weights laid end to end, so any run of {@code
 * total} consecutive calls has the exact proportions. Counts the outcome of each mode.
 */
final class Mix {
  /** One call of a workload: {@code i} is its number over the whole run, unique across threads. */
  interface Call {
    /** Makes call {@code i} in {@code mode}; returns its outcome's name. */
    String make(String mode, long i) throws Exception;
  }

  private final String[] slots;
  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

  Mix(String spec) {
    List<String> laid = new ArrayList<>();
    for (String part : spec.split(",")) {
      String[] kv = part.split(":");
      for (int n = Integer.parseInt(kv[1]); n > 0; n--) {
        laid.add(kv[0]);
      }
    }
    slots = laid.toArray(new String[0]);
  }

  /** Runs calls {@code 0..calls-1} on {@code threads} threads; answers counts and the duration. */
  String run(long calls, int threads, Call call) throws InterruptedException {
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int first = t;
      done.add(
          pool.submit(
              () -> {
                for (long i = first; i < calls; i += threads) {
                  String mode = slots[(int) (i % slots.length)];
                  String outcome;
                  try {
                    outcome = call.make(mode, i);
                  } catch (Exception e) {
                    String m = e.getMessage();
                    outcome = m != null && m.startsWith("levee:") ? "levee" : "exception";
                  }
                  counts.computeIfAbsent(mode + "." + outcome, k -> new LongAdder()).increment();
                }
                return null;
              }));
    }
    pool.shutdown();
    try {
      for (Future<?> f : done) {
        f.get();
      }
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
    StringBuilder out = new StringBuilder();
    new TreeMap<>(counts).forEach((k, v) -> out.append(k).append('=').append(v.sum()).append('\n'));
    long ms = (System.nanoTime() - start) / 1_000_000;
    return out.append("calls=")
        .append(calls)
        .append("\nmillis=")
        .append(ms)
        .append('\n')
        .toString();
  }
}
