package io.levee.soak;

import java.net.URI;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Open-loop constant load for the soak: {@link SoakMix} at a fixed rate, sent whether or not
 * earlier requests were answered, latency measured from when a request was due (as the demo's load
 * generator).
 *
 * <p>A failure is the agent's unless the agent was out of the application for the whole request:
 * {@link #agentIn} and {@link #agentOut} bracket every command that touches it, and bump an epoch
 * so that a request that spans an attach or a detach also counts as "with agent".
 *
 * <p>The requests go out on {@link SoakHttp}'s {@link #CONNECTIONS} keep-alive connections.
 *
 * <p>Concurrency: one scheduler thread sends; answers are recorded on the connections' threads into
 * the current {@link SoakStats}, which {@link #takeMinute} swaps.
 */
final class SoakLoad implements AutoCloseable {
  private static final long TICK_MILLIS = 5;

  /**
   * Requests waiting for an answer at most (queued in the driver or on the wire). Past it a request
   * is not sent and counts as unanswered, like a timeout, so that an application that stops
   * answering does not fill the driver's heap.
   */
  static final int MAX_OUTSTANDING = 4_000;

  /** More than Tomcat's 200 request threads, so that the application's own pool can fill. */
  static final int CONNECTIONS = 256;

  private final SoakHttp http;
  private final double rate;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(r -> Daemon.of(r, "soak-load"));
  private final AtomicReference<SoakStats> minute = new AtomicReference<>(new SoakStats());
  private final AtomicLong epoch = new AtomicLong();
  private volatile boolean agent;
  private volatile SoakTimeline timeline;
  private long sequence;
  private double credit;
  private long last;

  SoakLoad(String base, double rate) {
    URI uri = URI.create(base);
    this.http = new SoakHttp(uri.getHost(), uri.getPort(), CONNECTIONS);
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
    return http.outstanding();
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
    if (http.outstanding() >= MAX_OUTSTANDING) {
      stats.failed(
          agentAtSend,
          true,
          "not sent: " + MAX_OUTSTANDING + " requests unanswered",
          SoakMix.TIMEOUT.toNanos());
      return;
    }
    String path = SoakMix.path(n);
    http.submit(
        path,
        SoakMix.tenant(n),
        (status, body, error, timeout) -> {
          long nanos = System.nanoTime() - due;
          SoakStats now = minute.get();
          boolean withAgent = agentAtSend || agent || epoch.get() != epochAtSend;
          boolean success = error == null && status / 100 == 2;
          SoakTimeline t = timeline;
          if (t != null) {
            t.answered(success, nanos);
          }
          if (success) {
            now.ok(withAgent, nanos);
            return;
          }
          String what =
              error != null ? String.valueOf(error) : status + " " + path + " " + abbreviate(body);
          now.failed(withAgent, timeout, what, nanos);
        });
  }

  private static String abbreviate(String body) {
    String text = body == null ? "" : body.replace('\n', ' ');
    return text.length() > 120 ? text.substring(0, 120) + "..." : text;
  }

  @Override
  public void close() {
    stopSending();
    http.close();
  }

  /** Sends nothing more; what is outstanding is still answered and recorded. */
  void stopSending() {
    scheduler.shutdownNow();
  }
}
