package io.levee.demo.driver;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One stream of requests and one row of the table: a path, optional tenants taken in turn, the rate
 * the current scenario asks for, and its counts for the last tick and for the whole scenario.
 *
 * <p>Concurrency: the scenario thread sets the rate (volatile); the generator thread reads it and
 * builds requests; responses are recorded from the HTTP client's threads into the current {@link
 * RowStats}, which the table thread swaps for a fresh one.
 */
final class Row {
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

  final String name;

  /** The rule that protects this traffic: a resource name or {@link RulesOverview#SYSTEM}. */
  final String resource;

  final String path;
  private final String[] tenants;
  private final AtomicLong turn = new AtomicLong();
  private volatile double rate;
  private final AtomicReference<RowStats> tick = new AtomicReference<>(new RowStats());
  private final AtomicReference<RowStats> scenario = new AtomicReference<>(new RowStats());

  Row(String name, String resource, String path, String... tenants) {
    this.name = name;
    this.resource = resource;
    this.path = path;
    this.tenants = tenants;
  }

  double rate() {
    return rate;
  }

  void rate(double perSecond) {
    rate = perSecond;
  }

  HttpRequest request(String base) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(REQUEST_TIMEOUT);
    if (tenants.length > 0) {
      b.header("X-Tenant-ID", tenants[(int) (turn.getAndIncrement() % tenants.length)]);
    }
    return b.GET().build();
  }

  void sent() {
    tick.get().countSent();
    scenario.get().countSent();
  }

  void record(Outcome outcome, long nanos) {
    tick.get().record(outcome, nanos);
    scenario.get().record(outcome, nanos);
  }

  /** The counts since the last call, then starts new ones. */
  RowStats takeTick() {
    return tick.getAndSet(new RowStats());
  }

  /** The counts since the last call, then starts new ones for the next scenario. */
  RowStats takeScenario() {
    return scenario.getAndSet(new RowStats());
  }
}
