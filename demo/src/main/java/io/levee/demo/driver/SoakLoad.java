package io.levee.demo.driver;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Open-loop constant load for the soak: {@link SoakMix} at a fixed rate, sent whether or not earlier
 * requests were answered, latency measured from when a request was due (as {@link LoadGenerator}).
 *
 * <p>A failure is the agent's unless the agent was out of the application for the whole request:
 * {@link #agentIn} and {@link #agentOut} bracket every command that touches it, and bump an epoch so
 * that a request that spans an attach or a detach also counts as "with agent".
 *
 * <p>Concurrency: one scheduler thread sends; answers are recorded on the client's threads into the
 * current {@link SoakStats}, which {@link #takeMinute} swaps.
 */
final class SoakLoad implements AutoCloseable {
  private static final long TICK_MILLIS = 5;
  /**
   * Requests waiting for an answer at most. The client opens a connection for each, so without a
   * cap an application that stops answering exhausts the driver's file descriptors (seen at 20 000)
   * and with them the commands the soak must run. Past it a request is not sent and counts as
   * unanswered, like a timeout.
   */
  static final int MAX_OUTSTANDING = 4_000;

  private final HttpClient client;
  private final String base;
  private final double rate;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(r -> LoadGenerator.daemon(r, "soak-load"));
  private final AtomicReference<SoakStats> minute = new AtomicReference<>(new SoakStats());
  private final AtomicLong epoch = new AtomicLong();
  private final AtomicInteger outstanding = new AtomicInteger();
  private volatile boolean agent;
  private volatile SoakTimeline timeline;
  private long sequence;
  private double credit;
  private long last;

  SoakLoad(HttpClient client, String base, double rate) {
    this.client = client;
    this.base = base;
    this.rate = rate;
  }

  void start() {
    last = System.nanoTime();
    scheduler.scheduleAtFixedRate(this::tick, 0, TICK_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** Called before a command that puts the agent in (or changes it). */
  void agentIn() {
    agent = true;
    epoch.incrementAndGet();
  }

  /** Called once the agent is out of the application again. */
  void agentOut() {
    epoch.incrementAndGet();
    agent = false;
  }

  /** From now on, every answer also goes to {@code t} (null: to none). */
  void timeline(SoakTimeline t) {
    timeline = t;
  }

  /** Requests sent and not answered yet. */
  int outstanding() {
    return outstanding.get();
  }

  SoakStats takeMinute() {
    return minute.getAndSet(new SoakStats());
  }

  private void tick() {
    long now = System.nanoTime();
    credit = Math.min(credit + rate * (now - last) / 1e9, rate + 1);
    last = now;
    while (credit >= 1) {
      credit -= 1;
      send(sequence++, now);
    }
  }

  private void send(long n, long due) {
    boolean agentAtSend = agent;
    long epochAtSend = epoch.get();
    SoakStats stats = minute.get();
    stats.countSent();
    if (outstanding.get() >= MAX_OUTSTANDING) {
      stats.failed(agentAtSend, true, "not sent: " + MAX_OUTSTANDING + " requests unanswered",
          SoakMix.TIMEOUT.toNanos());
      return;
    }
    outstanding.incrementAndGet();
    client
        .sendAsync(SoakMix.request(base, n), HttpResponse.BodyHandlers.ofString())
        .whenComplete(
            (response, error) -> {
              outstanding.decrementAndGet();
              long nanos = System.nanoTime() - due;
              SoakStats now = minute.get();
              boolean withAgent = agentAtSend || agent || epoch.get() != epochAtSend;
              boolean success = error == null && response.statusCode() / 100 == 2;
              SoakTimeline t = timeline;
              if (t != null) {
                t.answered(success, nanos);
              }
              if (success) {
                now.ok(withAgent, nanos);
                return;
              }
              boolean timeout = error instanceof HttpTimeoutException
                  || error != null && error.getCause() instanceof HttpTimeoutException;
              String what = error != null
                  ? String.valueOf(error.getCause() != null ? error.getCause() : error)
                  : response.statusCode() + " " + response.uri().getPath() + " "
                      + abbreviate(response.body());
              now.failed(withAgent, timeout, what, nanos);
            });
  }

  private static String abbreviate(String body) {
    String text = body == null ? "" : body.replace('\n', ' ');
    return text.length() > 120 ? text.substring(0, 120) + "..." : text;
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
