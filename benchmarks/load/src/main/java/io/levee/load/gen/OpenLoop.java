package io.levee.load.gen;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * An open-loop, constant-rate generator (the wrk2 method). Each stream has a sender thread that
 * fires request k at its intended time {@code phaseStart + k / rate}, whether or not earlier
 * requests have answered, and every latency is measured from that intended time, so a server that
 * queues is charged for the queue (no coordinated omission). Requests are asynchronous on the JDK
 * HttpClient, which opens a new connection whenever none is idle, so the client never caps the
 * server's concurrency. A request not answered within {@link #CLIENT_TIMEOUT} is abandoned (a
 * timeout). A rejected (429/503) or timed-out attempt is sent again as its {@link Retries} say.
 */
public final class OpenLoop {
  public static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(2);

  private final HttpClient client;
  private final String base;
  private final Stub stub;
  private final LimitReader limits;
  private final Retries retry;
  private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor();
  private final AtomicLong outstanding = new AtomicLong();
  private final Histogram sendLag = new Histogram(60_000_000L, 2);
  private long start;
  private Series series;

  public OpenLoop(HttpClient client, String base, Stub stub, LimitReader limits, Retries retry) {
    this.client = client;
    this.base = base;
    this.stub = stub;
    this.limits = limits;
    this.retry = retry;
  }

  public static HttpClient newClient() {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(CLIENT_TIMEOUT)
        .build();
  }

  /** Runs the phases back to back and returns what each second saw. */
  public Series run(List<Phase> phases) throws InterruptedException {
    int seconds = 0;
    Set<String> names = new LinkedHashSet<>();
    for (Phase p : phases) {
      seconds += p.seconds();
      p.loads().forEach(l -> names.add(l.stream()));
    }
    series = new Series(seconds, names);
    start = System.nanoTime() + 50_000_000L;
    List<Thread> threads = new ArrayList<>();
    for (String name : names) {
      threads.add(thread("send-" + name, () -> sendAll(phases, name)));
    }
    int total = seconds;
    Thread poller = thread("limit", () -> poll(total));
    Thread stubber = thread("stub", () -> moveStub(phases));
    Thread cpu = thread("generator-cpu", () -> readOwnCpu(total));
    for (Thread t : threads) {
      t.join();
    }
    long waitUntil = System.nanoTime() + CLIENT_TIMEOUT.toNanos() * 2 + 1_000_000_000L;
    while (outstanding.get() > 0 && System.nanoTime() < waitUntil) {
      Thread.sleep(20);
    }
    poller.interrupt();
    stubber.interrupt();
    cpu.interrupt();
    retries.shutdownNow();
    return series;
  }

  /** Sender lag behind the intended times, microseconds (the generator's own health). */
  public synchronized Histogram sendLag() {
    return sendLag.copy();
  }

  private void sendAll(List<Phase> phases, String stream) {
    long phaseStart = start;
    for (Phase p : phases) {
      long phaseEnd = phaseStart + p.seconds() * 1_000_000_000L;
      for (Phase.Load load : p.loads()) {
        if (!load.stream().equals(stream) || load.rate() <= 0) {
          continue;
        }
        double interval = 1e9 / load.rate();
        URI uri = URI.create(base + load.path());
        for (long k = 0; ; k++) {
          long intended = phaseStart + (long) (k * interval);
          if (intended >= phaseEnd) {
            break;
          }
          parkUntil(intended);
          recordLag(System.nanoTime() - intended);
          send(load, uri, intended, 0);
        }
      }
      phaseStart = phaseEnd;
    }
  }

  private void send(Phase.Load load, URI uri, long intended, int attempt) {
    Bin bin = series.bin(load.stream(), second(intended));
    if (bin == null) {
      return;
    }
    (attempt == 0 ? bin.offered : bin.retries).increment();
    outstanding.incrementAndGet();
    HttpRequest req = HttpRequest.newBuilder(uri).timeout(CLIENT_TIMEOUT).GET().build();
    client
        .sendAsync(req, HttpResponse.BodyHandlers.discarding())
        .whenComplete(
            (resp, err) -> {
              outstanding.decrementAndGet();
              complete(
                  load, uri, bin, intended, attempt, resp == null ? -1 : resp.statusCode(), err);
            });
  }

  private void complete(
      Phase.Load load, URI uri, Bin bin, long intended, int attempt, int status, Throwable err) {
    long micros = (System.nanoTime() - intended) / 1000;
    boolean again = false;
    if (status >= 200 && status < 300) {
      (micros <= load.deadlineMillis() * 1000 ? bin.good : bin.late).increment();
      bin.recordAdmitted(micros);
    } else if (status == 429 || status == 503) {
      bin.rejected.increment();
      again = true;
    } else if (err != null && isTimeout(err)) {
      bin.timeouts.increment();
      again = true;
    } else {
      bin.errors.increment();
    }
    if (again && retry.again(attempt) && !retries.isShutdown()) {
      int next = attempt + 1;
      long delay = retry.delayNanos(next);
      long at = System.nanoTime() + delay;
      try {
        retries.schedule(() -> send(load, uri, at, next), delay, TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.RejectedExecutionException ignored) {
        // the run is over
      }
    }
  }

  private static boolean isTimeout(Throwable err) {
    for (Throwable t = err; t != null; t = t.getCause()) {
      if (t instanceof HttpTimeoutException) {
        return true;
      }
    }
    return false;
  }

  private void poll(int seconds) {
    if (limits == null) {
      return;
    }
    while (!Thread.currentThread().isInterrupted()) {
      int limit = limits.read();
      series.recordLimit(second(System.nanoTime()), limit);
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** At each second's end, the CPU time this JVM used in that second. */
  private void readOwnCpu(int seconds) {
    if (!(ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean jvm)) {
      return;
    }
    parkUntil(start);
    long before = jvm.getProcessCpuTime();
    for (int i = 0; i < seconds && !Thread.currentThread().isInterrupted(); i++) {
      parkUntil(start + (i + 1) * 1_000_000_000L);
      long now = jvm.getProcessCpuTime();
      series.generatorCpu[i] = (now - before) / 1e9;
      before = now;
    }
  }

  private void moveStub(List<Phase> phases) {
    long phaseStart = start;
    for (Phase p : phases) {
      if (p.stubMillis() >= 0 && stub != null) {
        parkUntil(phaseStart);
        stub.setLatencyMillis(p.stubMillis());
      }
      phaseStart += p.seconds() * 1_000_000_000L;
    }
  }

  private synchronized void recordLag(long nanos) {
    sendLag.recordValue(Math.max(0, Math.min(nanos / 1000, sendLag.getHighestTrackableValue())));
  }

  private int second(long nanos) {
    return (int) Math.floorDiv(nanos - start, 1_000_000_000L);
  }

  private static Thread thread(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static void parkUntil(long deadline) {
    for (long left; (left = deadline - System.nanoTime()) > 0; ) {
      LockSupport.parkNanos(left);
    }
  }
}
