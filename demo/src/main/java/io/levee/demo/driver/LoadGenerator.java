package io.levee.demo.driver;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An open-loop load generator: each row sends at its own fixed rate whether or not earlier requests
 * have been answered, as real users do. (A closed loop that waits for answers slows down exactly
 * when the application does and hides the overload the demo is about.) Latency is measured from
 * when a request was due, so a stalled client cannot hide a slow server either.
 *
 * <p>Concurrency: one scheduler thread ticks every {@link #TICK_MILLIS} ms and owns the fractional
 * credits; responses complete on the HTTP client's executor.
 */
final class LoadGenerator implements AutoCloseable {
  private static final long TICK_MILLIS = 5;

  private final HttpClient client;
  private final String base;
  private final List<Row> rows;
  private final double[] credit;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "load-generator"));
  private long last;

  LoadGenerator(HttpClient client, String base, List<Row> rows) {
    this.client = client;
    this.base = base;
    this.rows = rows;
    this.credit = new double[rows.size()];
  }

  void start() {
    last = System.nanoTime();
    scheduler.scheduleAtFixedRate(this::tick, 0, TICK_MILLIS, TimeUnit.MILLISECONDS);
  }

  private void tick() {
    long now = System.nanoTime();
    double seconds = (now - last) / 1e9;
    last = now;
    for (int i = 0; i < rows.size(); i++) {
      Row row = rows.get(i);
      credit[i] = Math.min(credit[i] + row.rate() * seconds, row.rate() + 1);
      while (credit[i] >= 1) {
        credit[i] -= 1;
        send(row, now);
      }
    }
  }

  private void send(Row row, long due) {
    row.sent();
    client
        .sendAsync(row.request(base), HttpResponse.BodyHandlers.ofString())
        .whenComplete(
            (response, error) -> {
              long nanos = System.nanoTime() - due;
              row.record(
                  error != null
                      ? Outcome.failed(error.getCause() != null ? error.getCause() : error)
                      : Outcome.of(
                          response.statusCode(),
                          response.body(),
                          response.headers().firstValue("Retry-After").isPresent()),
                  nanos);
            });
  }

  static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
