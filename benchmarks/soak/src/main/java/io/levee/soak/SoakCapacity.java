package io.levee.soak;

import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The capacity of the bare application for {@link SoakMix}: the highest open-loop rate it carries.
 *
 * <p>First a closed-loop sweep: N clients each sending its next request as soon as the last one is
 * answered, for {@link #STEP_MILLIS} each after a warm-up (a step's rate is the median of its
 * one-second rates), N doubling from 4 until the rate stops rising (it falls below the best so far,
 * or N reaches 256), then a step at {@link #FULL_POOL} clients. Each step also reports the CPU a
 * request cost the application and the driver (from {@code /proc}), and the sweep how busy both
 * were at the peak: a peak where the application's core was not busy was set by something else.
 *
 * <p>The closed loop's rate is not what an open-loop load may ask for: its clients wait, so a stall
 * never builds a backlog, and it runs on the JDK's HTTP client, whose cost on the driver's core
 * often sets its peak (the application's core was 53-59 % busy at the peaks). So the capacity is
 * then found the way the soak loads, with {@link SoakLoad}: open-loop steps of {@link
 * #OPEN_STEP_MILLIS}, rising by {@link #OPEN_RISE} from {@link #OPEN_START} of the sweep's capacity
 * (after one step that settles the connections the sweep left), each passing when every request
 * succeeded and the p99 (from the intended send time) stayed within {@link #OPEN_P99_MILLIS}; the
 * capacity is the highest passing rate, confirmed by a longer step at that rate (one step lower
 * each time the confirmation fails).
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

  static final long OPEN_STEP_MILLIS = 15_000;
  private static final long OPEN_CONFIRM_MILLIS = 45_000;
  static final double OPEN_START = 0.5;
  static final double OPEN_RISE = 1.15;

  /**
   * The search stops at this many times the closed loop's capacity: the closed loop runs on the
   * JDK's HTTP client, which costs the driver several times what {@link SoakHttp} does, so its
   * capacity is often the driver's (measured: open loop 2 061/s passed where the closed loop found
   * 1 477).
   */
  private static final double OPEN_CEILING = 4;

  /**
   * An open-loop step's p99 above this fails it. The healthy soak runs at 30-40 ms; a backlog that
   * starts to build shows in seconds.
   */
  static final double OPEN_P99_MILLIS = 250;

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
  private final long pid;
  private final SoakTimeline driver = new SoakTimeline(ProcessHandle.current().pid(), 0);
  private double lastCpuMillisPerRequest;
  private double lastDriverMillisPerRequest;
  private String lastSeconds = "";

  SoakCapacity(HttpClient client, String base, long pid, int appCores) {
    this.client = client;
    this.base = base;
    this.appCores = appCores;
    this.pid = pid;
    this.cpu = new SoakTimeline(pid, 0);
  }

  /** Lets the JIT compile the mix's paths before anything is measured. */
  void warmUp() throws InterruptedException {
    step(WARMUP_CLIENTS, WARMUP_MILLIS);
  }

  /**
   * Requests per second the application answers open loop (see the class comment); prints each
   * step.
   */
  double measure(PrintStream out) throws InterruptedException {
    warmUp();
    Sweep sweep = sweep(out, 1);
    print(
        out,
        String.format(
            Locale.ROOT,
            "  closed loop: peak %.0f requests/s at %d clients,"
                + " %.0f requests/s with a full pool (%d clients): %.0f%% of the peak; at the peak the"
                + " application kept its core(s) %.0f%% busy, the driver %.0f%% of its own%n",
            sweep.peak(),
            sweep.peakClients(),
            sweep.fullPool(),
            FULL_POOL,
            100 * sweep.fullPool() / sweep.peak(),
            100 * sweep.appBusy(),
            100 * sweep.driverBusy()));
    return openLoop(out, sweep.capacity());
  }

  /** The highest open-loop rate that passes, searched from {@code closed}'s share up. */
  double openLoop(PrintStream out, double closed) throws InterruptedException {
    double rate = Math.max(10, closed * OPEN_START);
    // the closed loop's last step left 200 requests' worth of connections and threads behind: the
    // first open-loop step after it measured that (p50 14 ms at a rate that later gave 3 ms)
    open(out, rate, OPEN_STEP_MILLIS, " (settling, not counted)");
    double pass = 0;
    while (rate <= closed * OPEN_CEILING && open(out, rate, OPEN_STEP_MILLIS, "")) {
      pass = rate;
      rate *= OPEN_RISE;
    }
    // a machine busier than the sweep saw: come down until a rate passes
    while (pass == 0 && rate > 10) {
      rate /= OPEN_RISE * OPEN_RISE;
      if (open(out, rate, OPEN_STEP_MILLIS, "")) {
        pass = rate;
      }
    }
    for (int i = 0; i < 3 && pass > 10 && !open(out, pass, OPEN_CONFIRM_MILLIS, ""); i++) {
      pass /= OPEN_RISE;
    }
    print(
        out,
        String.format(
            Locale.ROOT,
            "  open loop: capacity %.0f requests/s (%.0f%% of the" + " closed loop's)%n",
            pass,
            100 * pass / closed));
    return pass;
  }

  /** One open-loop step at {@code rate} for {@code millis}; whether it passed. */
  private boolean open(PrintStream out, double rate, long millis, String note)
      throws InterruptedException {
    SoakStats stats;
    int left;
    SoakTimeline seconds = new SoakTimeline(pid, millis / 1000 + SoakMix.TIMEOUT.toSeconds() + 6);
    try (SoakLoad load = new SoakLoad(base, rate)) {
      load.timeline(seconds);
      load.start();
      long end = System.nanoTime() + millis * 1_000_000;
      while (System.nanoTime() < end) {
        seconds.sample(load.outstanding());
        Thread.sleep(SoakTimeline.BUCKET_MILLIS);
      }
      load.stopSending();
      long drain = System.nanoTime() + SoakMix.TIMEOUT.toNanos() + 5_000_000_000L;
      while (load.outstanding() > 0 && System.nanoTime() < drain) {
        seconds.sample(load.outstanding());
        Thread.sleep(SoakTimeline.BUCKET_MILLIS);
      }
      left = load.outstanding();
      stats = load.takeMinute();
    }
    boolean ok =
        stats.failedWithout() + stats.failedWithAgent() == 0
            && left == 0
            && stats.p99() <= OPEN_P99_MILLIS;
    print(
        out,
        String.format(
            Locale.ROOT,
            "  open loop at %6.0f requests/s for %2d s%s: %d sent,"
                + " %d failed, p50 %.1f ms, p99 %.1f ms -> %s%n",
            rate,
            millis / 1000,
            note,
            stats.sent(),
            stats.failedWithout() + stats.failedWithAgent(),
            stats.p50(),
            stats.p99(),
            ok ? "pass" : "over"));
    if (!ok) {
      seconds.printSeconds(out);
    }
    Thread.sleep(2_000);
    return ok;
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
        driverBusy =
            rate * lastDriverMillisPerRequest / 1000 / Runtime.getRuntime().availableProcessors();
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
    out.printf(
        Locale.ROOT,
        "  %s, %3d clients: %6.0f requests/s (each second: %s); CPU per"
            + " request %.3f ms in the application, %.3f ms in the driver%n",
        label,
        clients,
        rate,
        lastSeconds,
        lastCpuMillisPerRequest,
        lastDriverMillisPerRequest);
    return rate;
  }

  /** Every line {@link #measure} printed, for the report. */
  String table() {
    return table.toString();
  }

  private void print(PrintStream out, int sweep, int clients, double rate) {
    print(
        out,
        String.format(
            Locale.ROOT,
            "  sweep %d, %3d clients in a closed loop: %6.0f"
                + " requests/s (each second: %s); CPU per request %.2f ms in the application, %.2f ms in"
                + " the driver%n",
            sweep,
            clients,
            rate,
            lastSeconds,
            lastCpuMillisPerRequest,
            lastDriverMillisPerRequest));
  }

  private void print(PrintStream out, String line) {
    out.print(line);
    table.append(line);
  }

  /**
   * The median of the step's one-second rates: a neighbour's burst that stalls the application for
   * a second or two (a shared machine) then neither ends the sweep early nor drags the capacity
   * down.
   */
  private double step(int clients, long millis) throws InterruptedException {
    AtomicLong ok = new AtomicLong();
    long begin = System.nanoTime();
    long end = begin + millis * 1_000_000;
    long ticks = cpu.cpuTicks();
    long own = driver.cpuTicks();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      Thread t = Daemon.of(() -> loop(end, ok), "soak-capacity-" + i);
      threads.add(t);
      t.start();
    }
    int seconds = (int) Math.max(1, millis / 1000);
    long[] perSecond = new long[seconds];
    long last = 0;
    for (int i = 0; i < seconds; i++) {
      Thread.sleep(
          Math.max(0, (begin + (i + 1) * (end - begin) / seconds - System.nanoTime()) / 1_000_000));
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
        HttpResponse<String> r =
            client.send(
                SoakMix.request(base, sequence.getAndIncrement()),
                HttpResponse.BodyHandlers.ofString());
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
