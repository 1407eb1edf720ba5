package io.levee.soak;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the application did every {@link #BUCKET_MILLIS} while {@link SoakProbe} attached and
 * detached the agent: answers (2xx) and failures completed in the bucket, their worst latency, the
 * requests still unanswered at its end, and the CPU the application's process used in it (from
 * {@code /proc/PID/stat}, so everything the JVM did: request threads, JIT, GC, the agent).
 *
 * <p>Concurrency: the HTTP client's threads call {@link #answered}; one sampler thread calls {@link
 * #sample}; both under this object's lock (a thousand calls a second at most).
 */
final class SoakTimeline {
  static final long BUCKET_MILLIS = 100;
  private static final long TICKS_PER_SECOND = 100;

  private final long start = System.nanoTime();
  private final int buckets;
  private final long[] ok;
  private final long[] failed;
  private final long[] worstMillis;
  private final long[] unanswered;
  private final long[] cpuMillis;
  private final long[] driverMillis;
  private final long[] driverGcMillis;
  private final List<String> events = new ArrayList<>();
  private final Path stat;
  private final Path self;
  private long lastTicks = -1;
  private long lastSelf = -1;
  private long lastGc = -1;

  SoakTimeline(long pid, long seconds) {
    buckets = (int) (seconds * 1000 / BUCKET_MILLIS) + 1;
    ok = new long[buckets];
    failed = new long[buckets];
    worstMillis = new long[buckets];
    unanswered = new long[buckets];
    cpuMillis = new long[buckets];
    driverMillis = new long[buckets];
    driverGcMillis = new long[buckets];
    stat = Path.of("/proc", Long.toString(pid), "stat");
    self = Path.of("/proc", Long.toString(ProcessHandle.current().pid()), "stat");
  }

  synchronized void answered(boolean success, long latencyNanos) {
    int b = bucket(System.nanoTime());
    (success ? ok : failed)[b]++;
    worstMillis[b] = Math.max(worstMillis[b], latencyNanos / 1_000_000);
  }

  /** Called once per bucket: the requests unanswered now and the CPU used since the last call. */
  synchronized void sample(int outstanding) {
    int b = bucket(System.nanoTime());
    unanswered[b] = outstanding;
    long ticks = cpuTicks();
    if (lastTicks >= 0 && ticks >= 0) {
      cpuMillis[b] += (ticks - lastTicks) * 1000 / TICKS_PER_SECOND;
    }
    lastTicks = ticks;
    long own = ticks(self);
    if (lastSelf >= 0 && own >= 0) {
      driverMillis[b] += (own - lastSelf) * 1000 / TICKS_PER_SECOND;
    }
    lastSelf = own;
    long gc = driverGc();
    if (lastGc >= 0) {
      driverGcMillis[b] += gc - lastGc;
    }
    lastGc = gc;
  }

  /**
   * Milliseconds the driver's own JVM spent collecting garbage so far (its pauses stop the load).
   */
  static long driverGc() {
    long millis = 0;
    for (java.lang.management.GarbageCollectorMXBean gc :
        java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
      millis += Math.max(0, gc.getCollectionTime());
    }
    return millis;
  }

  synchronized void event(String what) {
    events.add(String.format(Locale.ROOT, "%7.1f s  %s", seconds(), what));
  }

  double seconds() {
    return (System.nanoTime() - start) / 1e9;
  }

  /** CPU seconds the process used so far (user + system), or -1 if {@code /proc} is missing. */
  long cpuTicks() {
    return ticks(stat);
  }

  private static long ticks(Path stat) {
    try {
      String s = Files.readString(stat);
      String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * Prints one row per bucket from {@code from} to {@code to} seconds: time, answers, failures,
   * worst latency, unanswered requests, CPU of the application and of the driver (ms of the
   * bucket's 100 per core), and the driver's GC time (a pause there stops the load and the
   * partner).
   */
  synchronized void print(PrintStream out, double from, double to) {
    out.println("      t(s)   ok  fail  worst(ms)  unanswered  cpu(ms)  driver(ms)  driver-gc(ms)");
    for (int b = index(from); b <= index(to) && b < buckets; b++) {
      out.printf(
          Locale.ROOT,
          "  %8.1f %4d %5d %10d %11d %8d %11d %14d%n",
          b * BUCKET_MILLIS / 1000.0,
          ok[b],
          failed[b],
          worstMillis[b],
          unanswered[b],
          cpuMillis[b],
          driverMillis[b],
          driverGcMillis[b]);
    }
  }

  /** Prints one row per second over the whole run. */
  synchronized void printSeconds(PrintStream out) {
    out.println(
        "      t(s)    ok/s  fail/s  worst(ms)  unanswered  cpu(ms/s)  driver(ms/s)"
            + "  driver-gc(ms)");
    int per = (int) (1000 / BUCKET_MILLIS);
    for (int s = 0; s * per < buckets; s++) {
      long o = 0;
      long f = 0;
      long w = 0;
      long c = 0;
      long d = 0;
      long g = 0;
      for (int b = s * per; b < Math.min(buckets, (s + 1) * per); b++) {
        o += ok[b];
        f += failed[b];
        w = Math.max(w, worstMillis[b]);
        c += cpuMillis[b];
        d += driverMillis[b];
        g += driverGcMillis[b];
      }
      long u = unanswered[Math.min(buckets - 1, (s + 1) * per - 1)];
      out.printf(Locale.ROOT, "  %8d %7d %7d %10d %11d %10d %13d %14d%n", s, o, f, w, u, c, d, g);
    }
  }

  /**
   * Seconds from {@code at} until the application has caught up: the first bucket from which, for a
   * whole second, no answer was older than {@code okMillis} and the unanswered requests stayed
   * below {@code backlog}. -1 if it never did before the end.
   */
  synchronized double recovery(double at, long okMillis, long backlog) {
    int per = (int) (1000 / BUCKET_MILLIS);
    for (int b = index(at); b + per <= buckets; b++) {
      boolean fine = true;
      for (int i = b; i < b + per && fine; i++) {
        fine = worstMillis[i] <= okMillis && unanswered[i] < backlog && ok[i] > 0;
      }
      if (fine) {
        return b * BUCKET_MILLIS / 1000.0 - at;
      }
    }
    return -1;
  }

  /** The longest run of buckets from {@code from} to {@code to} seconds with no answer at all. */
  synchronized double longestSilence(double from, double to) {
    int longest = 0;
    int run = 0;
    for (int b = index(from); b <= index(to) && b < buckets; b++) {
      run = ok[b] + failed[b] == 0 ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    return longest * BUCKET_MILLIS / 1000.0;
  }

  /** The mean of the unanswered requests sampled from {@code from} to {@code to} seconds. */
  synchronized double meanUnanswered(double from, double to) {
    long sum = 0;
    int n = 0;
    for (int b = index(from); b <= index(to) && b < buckets; b++, n++) {
      sum += unanswered[b];
    }
    return n == 0 ? 0 : (double) sum / n;
  }

  synchronized List<String> events() {
    return List.copyOf(events);
  }

  private int bucket(long nanos) {
    return Math.min(buckets - 1, (int) ((nanos - start) / 1_000_000 / BUCKET_MILLIS));
  }

  private int index(double seconds) {
    return Math.max(0, (int) Math.round(seconds * 1000 / BUCKET_MILLIS));
  }
}
