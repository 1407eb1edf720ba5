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
 * a warm-up. A sweep doubles N from 4 until the rate stops rising (it falls below the best so far,
 * or N reaches 256); its best rate is the peak.
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
  private static final long WARMUP_MILLIS = 10_000;
  private static final int MIN_CLIENTS = 4;
  private static final int MAX_CLIENTS = 256;
  /** A step this far below the best so far ends the sweep: more clients only queue. */
  private static final double FALL = 0.95;

  /** What one sweep found: the peak, and the rate with a full pool. */
  record Sweep(double peak, int peakClients, double fullPool) {
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
  private double lastCpuMillisPerRequest;

  SoakCapacity(HttpClient client, String base, long pid) {
    this.client = client;
    this.base = base;
    this.cpu = new SoakTimeline(pid, 0);
  }

  /** Lets the JIT compile the mix's paths before anything is measured. */
  void warmUp() throws InterruptedException {
    step(8, WARMUP_MILLIS);
  }

  /** Requests per second the application answers even with a full pool; prints each step. */
  double measure(PrintStream out) throws InterruptedException {
    warmUp();
    double capacity = Double.MAX_VALUE;
    for (int n = 1; n <= 2; n++) {
      Sweep sweep = sweep(out, n);
      print(out, String.format(Locale.ROOT, "  sweep %d: peak %.0f requests/s at %d clients,"
          + " %.0f requests/s with a full pool (%d clients): %.0f%% of the peak%n", n,
          sweep.peak(), sweep.peakClients(), sweep.fullPool(), FULL_POOL,
          100 * sweep.fullPool() / sweep.peak()));
      capacity = Math.min(capacity, sweep.capacity());
    }
    return capacity;
  }

  private Sweep sweep(PrintStream out, int n) throws InterruptedException {
    double best = 0;
    int bestClients = 0;
    for (int clients = MIN_CLIENTS; clients <= MAX_CLIENTS; clients *= 2) {
      double rate = step(clients, STEP_MILLIS);
      print(out, n, clients, rate);
      if (rate > best) {
        best = rate;
        bestClients = clients;
      } else if (rate < best * FALL) {
        break;
      }
    }
    double full = step(FULL_POOL, STEP_MILLIS);
    print(out, n, FULL_POOL, full);
    return new Sweep(best, bestClients, full);
  }

  /** Every line {@link #measure} printed, for the report. */
  String table() {
    return table.toString();
  }

  private void print(PrintStream out, int sweep, int clients, double rate) {
    print(out, String.format(Locale.ROOT, "  sweep %d, %3d clients in a closed loop: %6.0f"
        + " requests/s; %.2f ms of CPU each (%.0f/s if it had its core to itself)%n", sweep,
        clients, rate, lastCpuMillisPerRequest, 1000 / lastCpuMillisPerRequest));
  }

  private void print(PrintStream out, String line) {
    out.print(line);
    table.append(line);
  }

  private double step(int clients, long millis) throws InterruptedException {
    AtomicLong ok = new AtomicLong();
    long end = System.nanoTime() + millis * 1_000_000;
    long ticks = cpu.cpuTicks();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      Thread t = LoadGenerator.daemon(() -> loop(end, ok), "soak-capacity-" + i);
      threads.add(t);
      t.start();
    }
    Thread.sleep(Math.max(0, (end - System.nanoTime()) / 1_000_000));
    lastCpuMillisPerRequest = (cpu.cpuTicks() - ticks) * 10.0 / Math.max(1, ok.get());
    for (Thread t : threads) {
      t.join();
    }
    return ok.get() * 1000.0 / millis;
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
