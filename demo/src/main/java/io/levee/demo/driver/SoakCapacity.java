package io.levee.demo.driver;

import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The capacity of the bare application for {@link SoakMix}: a closed-loop sweep, N clients each
 * sending its next request as soon as the last one is answered, for N = 4, 8, 16, 32 and
 * {@link #STEP_MILLIS} each after a warm-up. Throughput stops growing once the application's cores
 * are saturated, so the best 2xx rate of a sweep is the capacity. On a shared machine one sweep
 * can catch a quiet moment, so there are two, and the lower of their two bests counts.
 */
final class SoakCapacity {
  static final long STEP_MILLIS = 5_000;
  private static final long WARMUP_MILLIS = 10_000;
  private static final int[] CLIENTS = {4, 8, 16, 32};

  private final HttpClient client;
  private final String base;
  private final AtomicLong sequence = new AtomicLong();

  SoakCapacity(HttpClient client, String base) {
    this.client = client;
    this.base = base;
  }

  /** Requests per second the application answers at best; prints each step. */
  double measure(PrintStream out) throws InterruptedException {
    step(8, WARMUP_MILLIS);
    double capacity = Double.MAX_VALUE;
    for (int sweep = 1; sweep <= 2; sweep++) {
      double best = 0;
      for (int clients : CLIENTS) {
        double rate = step(clients, STEP_MILLIS);
        out.printf(Locale.ROOT, "  sweep %d, %2d clients in a closed loop: %6.0f requests/s%n",
            sweep, clients, rate);
        best = Math.max(best, rate);
      }
      capacity = Math.min(capacity, best);
    }
    return capacity;
  }

  private double step(int clients, long millis) throws InterruptedException {
    AtomicLong ok = new AtomicLong();
    long end = System.nanoTime() + millis * 1_000_000;
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      Thread t = LoadGenerator.daemon(() -> loop(end, ok), "soak-capacity-" + i);
      threads.add(t);
      t.start();
    }
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
