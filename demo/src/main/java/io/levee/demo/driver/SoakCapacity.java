package io.levee.demo.driver;

import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The capacity of the bare application for {@link SoakMix}, from closed-loop steps: N clients each
 * sending its next request as soon as the last one is answered, for {@link #STEP_MILLIS} each after
 * a warm-up (a step's rate is the median of its one-second rates). A sweep doubles N from 4 until
 * the rate stops rising (it falls below the best so far, or N reaches 256); its best rate is the
 * peak. Each step also reports the CPU a request cost the application and the driver (from
 * {@code /proc}), and each sweep how busy both were at the peak: a peak where the application's
 * core was not busy was set by something else (the driver, the partner, a neighbour on the core).
 *
 * <p>The peak alone overstates what the soak may ask for. An open-loop load that a stall (a GC, an
 * attach, a neighbour on the core) puts behind fills Tomcat's pool with {@link #FULL_POOL} requests
 * in flight, and the application must still work faster than the load comes to drain that backlog;
 * if its rate with a full pool is lower than its peak (context switches, H2's locks, GC of the
 * queued requests), that lower rate is what it can be loaded against. So each sweep ends with a step
 * at {@link #FULL_POOL} clients, and a sweep's capacity is the lower of its peak and that rate. On a
 * shared machine one sweep can catch a quiet moment, so there are two, and the lower counts.
 */
final class SoakCapacity {
  static final long STEP_MILLIS = 5_000;
  /** Tomcat's maxThreads in the demo application. */
  static final int FULL_POOL = 200;
  /**
   * Long and wide enough for C2 to compile the whole mix: after 10 s at 8 clients a request still
   * cost the application 0.5 ms of CPU, 0.3 ms a minute later, so the first sweep measured the JIT.
   */
  private static final long WARMUP_MILLIS = 30_000;
  private static final int WARMUP_CLIENTS = 64;
  private static final int MIN_CLIENTS = 4;
  private static final int MAX_CLIENTS = 256;
  /** A step this far below the best so far ends the sweep: more clients only queue. */
  private static final double FALL = 0.95;

  /** What one sweep found: the peak, and the rate with a full pool. */
  record Sweep(double peak, int peakClients, double fullPool, double appBusy, double driverBusy) {
    double capacity() {
      return Math.min(peak, fullPool);
    }
  }

  private final HttpClient client;
  private final String base;
  private final AtomicLong sequence = new AtomicLong();
  private final StringBuilder table = new StringBuilder();
  /** Only for the application's CPU time, which says what a step cost it whatever else ran. */
  private final SoakTimeline cpu;
  private final int appCores;
  private final SoakTimeline driver = new SoakTimeline(ProcessHandle.current().pid(), 0);
  private double lastCpuMillisPerRequest;
  private double lastDriverMillisPerRequest;
  private String lastSeconds = "";

  SoakCapacity(HttpClient client, String base, long pid, int appCores) {
    this.client = client;
    this.base = base;
    this.appCores = appCores;
    this.cpu = new SoakTimeline(pid, 0);
  }

  /** Lets the JIT compile the mix's paths before anything is measured. */
  void warmUp() throws InterruptedException {
    step(WARMUP_CLIENTS, WARMUP_MILLIS);
  }

  /** Requests per second the application answers even with a full pool; prints each step. */
  double measure(PrintStream out) throws InterruptedException {
    warmUp();
    double capacity = Double.MAX_VALUE;
    for (int n = 1; n <= 2; n++) {
      Sweep sweep = sweep(out, n);
      print(out, String.format(Locale.ROOT, "  sweep %d: peak %.0f requests/s at %d clients,"
          + " %.0f requests/s with a full pool (%d clients): %.0f%% of the peak; at the peak the"
          + " application kept its core(s) %.0f%% busy, the driver %.0f%% of its own%n", n,
          sweep.peak(), sweep.peakClients(), sweep.fullPool(), FULL_POOL,
          100 * sweep.fullPool() / sweep.peak(), 100 * sweep.appBusy(),
          100 * sweep.driverBusy()));
      capacity = Math.min(capacity, sweep.capacity());
    }
    return capacity;
  }

  private Sweep sweep(PrintStream out, int n) throws InterruptedException {
    double best = 0;
    int bestClients = 0;
    double appBusy = 0;
    double driverBusy = 0;
    for (int clients = MIN_CLIENTS; clients <= MAX_CLIENTS; clients *= 2) {
      double rate = step(clients, STEP_MILLIS);
      print(out, n, clients, rate);
      if (rate > best) {
        best = rate;
        bestClients = clients;
        appBusy = rate * lastCpuMillisPerRequest / 1000 / appCores;
        driverBusy = rate * lastDriverMillisPerRequest / 1000
            / Runtime.getRuntime().availableProcessors();
      } else if (rate < best * FALL) {
        break;
      }
    }
    double full = step(FULL_POOL, STEP_MILLIS);
    print(out, n, FULL_POOL, full);
    return new Sweep(best, bestClients, full, appBusy, driverBusy);
  }

  /** One closed-loop step of {@code clients}, printed under {@code label}; its rate. */
  double step(PrintStream out, String label, int clients) throws InterruptedException {
    double rate = step(clients, STEP_MILLIS);
    out.printf(Locale.ROOT, "  %s, %3d clients: %6.0f requests/s (each second: %s); CPU per"
        + " request %.3f ms in the application, %.3f ms in the driver%n", label, clients, rate,
        lastSeconds, lastCpuMillisPerRequest, lastDriverMillisPerRequest);
    return rate;
  }

  /** Every line {@link #measure} printed, for the report. */
  String table() {
    return table.toString();
  }

  private void print(PrintStream out, int sweep, int clients, double rate) {
    print(out, String.format(Locale.ROOT, "  sweep %d, %3d clients in a closed loop: %6.0f"
        + " requests/s (each second: %s); CPU per request %.2f ms in the application, %.2f ms in"
        + " the driver%n", sweep, clients, rate, lastSeconds, lastCpuMillisPerRequest,
        lastDriverMillisPerRequest));
  }

  private void print(PrintStream out, String line) {
    out.print(line);
    table.append(line);
  }

  /**
   * The median of the step's one-second rates: a neighbour's burst that stalls the application for a
   * second or two (a shared machine) then neither ends the sweep early nor drags the capacity down.
   */
  private double step(int clients, long millis) throws InterruptedException {
    AtomicLong ok = new AtomicLong();
    long begin = System.nanoTime();
    long end = begin + millis * 1_000_000;
    long ticks = cpu.cpuTicks();
    long own = driver.cpuTicks();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      Thread t = LoadGenerator.daemon(() -> loop(end, ok), "soak-capacity-" + i);
      threads.add(t);
      t.start();
    }
    int seconds = (int) Math.max(1, millis / 1000);
    long[] perSecond = new long[seconds];
    long last = 0;
    for (int i = 0; i < seconds; i++) {
      Thread.sleep(Math.max(0, (begin + (i + 1) * (end - begin) / seconds - System.nanoTime())
          / 1_000_000));
      long now = ok.get();
      perSecond[i] = now - last;
      last = now;
    }
    lastCpuMillisPerRequest = (cpu.cpuTicks() - ticks) * 10.0 / Math.max(1, last);
    lastDriverMillisPerRequest = (driver.cpuTicks() - own) * 10.0 / Math.max(1, last);
    for (Thread t : threads) {
      t.join();
    }
    lastSeconds = java.util.Arrays.toString(perSecond).replaceAll("[\\[\\],]", "");
    java.util.Arrays.sort(perSecond);
    return perSecond[seconds / 2] * 1000.0 * seconds / millis;
  }

  private void loop(long end, AtomicLong ok) {
    while (System.nanoTime() < end) {
      try {
        HttpResponse<String> r = client.send(
            SoakMix.request(base, sequence.getAndIncrement()), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 == 2 && System.nanoTime() < end) {
          ok.incrementAndGet();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (java.io.IOException e) {
        // A failed request adds nothing to the throughput; the sweep goes on.
      }
    }
  }
}
