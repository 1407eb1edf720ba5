package io.levee.it.apps;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * When requests reached the container, recorded in front of every filter and servlet (a Tomcat
 * valve, a Jetty handler), so a test can tell what an exact limiter would have admitted at the
 * moments the application really saw the requests, whatever the scheduler did to the client or the
 * server.
 *
 * <p>Concurrency: a fixed ring written by container threads through one atomic index; a reader may
 * see an entry whose path is written but whose time is not yet, and skips it.
 */
public final class Arrivals {
  private static final int CAPACITY = 1 << 14;
  private static final AtomicInteger NEXT = new AtomicInteger();
  private static final AtomicLongArray TIMES = new AtomicLongArray(CAPACITY);
  private static final AtomicReferenceArray<String> PATHS = new AtomicReferenceArray<>(CAPACITY);

  private Arrivals() {}

  public static void record(String path) {
    int i = NEXT.getAndIncrement() & (CAPACITY - 1);
    PATHS.set(i, null);
    TIMES.set(i, System.nanoTime());
    PATHS.set(i, path);
  }

  /**
   * {@code /arrivals?prefix=/x/}: the arrival nanoTimes of requests under that path, one a line.
   */
  public static String handle(java.util.Map<String, String> q) {
    String prefix = q.getOrDefault("prefix", "/");
    StringBuilder out = new StringBuilder();
    int end = Math.min(NEXT.get(), CAPACITY);
    for (int i = 0; i < end; i++) {
      String path = PATHS.get(i);
      if (path != null && path.startsWith(prefix)) {
        out.append(TIMES.get(i)).append('\n');
      }
    }
    return out.toString();
  }
}
