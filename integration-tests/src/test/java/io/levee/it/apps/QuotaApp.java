package io.levee.it.apps;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One instance of a fleet calling a partner through a cluster-wide quota: it calls {@code args[0]}
 * with {@link HttpURLConnection} at the rate the test sets ({@code /rate?perSecond=N}, open loop:
 * calls start on schedule whatever earlier ones do) and counts what happened ({@code /counts}):
 * calls that got a response, calls Levee blocked ({@code levee:} exceptions), other errors, and the
 * longest call of each kind in microseconds.
 */
public final class QuotaApp {
  private static final AtomicLong ADMITTED = new AtomicLong();
  private static final AtomicLong BLOCKED = new AtomicLong();
  private static final AtomicLong ERRORS = new AtomicLong();
  private static final AtomicLong ADMITTED_MAX_MICROS = new AtomicLong();
  private static final AtomicLong BLOCKED_MAX_MICROS = new AtomicLong();
  private static final ExecutorService CALLERS = Executors.newFixedThreadPool(16);
  private static volatile double perSecond;
  private static volatile String lastError = "";

  private QuotaApp() {}

  public static void main(String[] args) throws Exception {
    URL partner = new URL(args[0]);
    HttpServer control = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    control.createContext(
        "/rate",
        exchange -> {
          Map<String, String> q = query(exchange.getRequestURI().getRawQuery());
          perSecond = Double.parseDouble(q.getOrDefault("perSecond", "0"));
          answer(exchange, "rate " + perSecond);
        });
    control.createContext("/counts", exchange -> answer(exchange, counts()));
    control.start();
    Thread pacer = new Thread(() -> pace(partner), "pacer");
    pacer.setDaemon(true);
    pacer.start();
    AppProcess.ready(control.getAddress().getPort());
  }

  private static void pace(URL partner) {
    long next = System.nanoTime();
    while (true) {
      double rate = perSecond;
      if (rate <= 0) {
        sleepNanos(5_000_000L);
        next = System.nanoTime();
        continue;
      }
      long now = System.nanoTime();
      if (now < next) {
        sleepNanos(Math.min(next - now, 2_000_000L));
        continue;
      }
      next += (long) (1e9 / rate);
      if (now - next > 1_000_000_000L) {
        next = now; // fell behind by over a second (a pause): do not fire the backlog at once
      }
      CALLERS.execute(() -> call(partner));
    }
  }

  private static void call(URL partner) {
    long start = System.nanoTime();
    try {
      HttpURLConnection c = (HttpURLConnection) partner.openConnection();
      c.setConnectTimeout(5000);
      c.setReadTimeout(5000);
      try (InputStream in = c.getInputStream()) {
        in.readAllBytes();
      }
      ADMITTED.incrementAndGet();
      max(ADMITTED_MAX_MICROS, start);
    } catch (IOException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("levee:")) {
        BLOCKED.incrementAndGet();
        max(BLOCKED_MAX_MICROS, start);
      } else {
        ERRORS.incrementAndGet();
        lastError = String.valueOf(e);
      }
    }
  }

  private static void max(AtomicLong max, long start) {
    long micros = (System.nanoTime() - start) / 1000;
    max.accumulateAndGet(micros, Math::max);
  }

  private static String counts() {
    return "admitted "
        + ADMITTED.get()
        + "\nblocked "
        + BLOCKED.get()
        + "\nerrors "
        + ERRORS.get()
        + "\nadmittedMaxMicros "
        + ADMITTED_MAX_MICROS.get()
        + "\nblockedMaxMicros "
        + BLOCKED_MAX_MICROS.get()
        + "\nlastError "
        + lastError
        + "\n";
  }

  private static void sleepNanos(long nanos) {
    try {
      Thread.sleep(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> q = new HashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          q.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
      }
    }
    return q;
  }

  private static void answer(com.sun.net.httpserver.HttpExchange exchange, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(200, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
