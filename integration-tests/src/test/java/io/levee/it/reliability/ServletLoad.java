package io.levee.it.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongFunction;

/**
 * Inbound requests from the test to a forked application over loopback keep-alive connections (one
 * per thread, as {@link HttpURLConnection} keeps them), counted by status.
 */
final class ServletLoad {
  /** One request: its path and query, and a header (name, value) or none. */
  record Request(String pathAndQuery, String header, String value) {
    static Request of(String pathAndQuery) {
      return new Request(pathAndQuery, null, null);
    }
  }

  private final String base;
  private final Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();

  ServletLoad(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  /** Sends requests {@code 0..count-1}, as {@code request} builds them, on {@code threads}. */
  ServletLoad send(long count, int threads, LongFunction<Request> request) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        done.add(
            pool.submit(
                () -> {
                  for (long i = first; i < count; i += threads) {
                    int status = call(request.apply(i));
                    statuses.computeIfAbsent(status, k -> new LongAdder()).increment();
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return this;
  }

  long count(int status) {
    LongAdder n = statuses.get(status);
    return n == null ? 0 : n.sum();
  }

  long total() {
    return statuses.values().stream().mapToLong(LongAdder::sum).sum();
  }

  /** Counts by status, e.g. {@code {200=9000, 429=1000}}. */
  @Override
  public String toString() {
    Map<Integer, Long> sorted = new TreeMap<>();
    statuses.forEach((k, v) -> sorted.put(k, v.sum()));
    return sorted.toString();
  }

  private int call(Request r) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(base + r.pathAndQuery()).openConnection();
    c.setConnectTimeout(5_000);
    c.setReadTimeout(30_000);
    if (r.header() != null) {
      c.setRequestProperty(r.header(), r.value());
    }
    int status = c.getResponseCode();
    InputStream body = status >= 400 ? c.getErrorStream() : c.getInputStream();
    if (body != null) {
      try (InputStream in = body) {
        in.readAllBytes(); // read to the end, so the connection goes back to the keep-alive cache
      }
    }
    return status;
  }
}
