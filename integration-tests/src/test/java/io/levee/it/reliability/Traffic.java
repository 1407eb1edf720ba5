package io.levee.it.reliability;

import io.levee.it.support.AppClient;
import io.levee.it.support.Reply;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * Closed-loop load on one page: a few threads, each sending its next request when the last one
 * answered (after a short pause), every answer recorded with when it was sent and received.
 *
 * <p>Concurrency: each thread records into its own list; {@link #stop()} joins the threads before
 * reading them.
 */
final class Traffic {
  /** One request: {@link System#nanoTime()} at send and answer; status -1 if none came. */
  record Sample(long startNanos, long endNanos, int status, Reply reply) {
    long millis() {
      return (endNanos - startNanos) / 1_000_000;
    }

    boolean startedWithin(long fromNanos, long toNanos) {
      return startNanos >= fromNanos && startNanos < toNanos;
    }
  }

  private final List<Thread> threads = new ArrayList<>();
  private final List<List<Sample>> samples = new ArrayList<>();
  private volatile boolean running = true;

  private Traffic(AppClient client, String pathAndQuery, int threadCount, long pauseMillis) {
    for (int i = 0; i < threadCount; i++) {
      List<Sample> mine = new ArrayList<>();
      samples.add(mine);
      Thread thread =
          new Thread(() -> run(client, pathAndQuery, pauseMillis, mine), "traffic-" + i);
      thread.setDaemon(true);
      threads.add(thread);
    }
    threads.forEach(Thread::start);
  }

  static Traffic start(AppClient client, String pathAndQuery, int threads, long pauseMillis) {
    return new Traffic(client, pathAndQuery, threads, pauseMillis);
  }

  /** Ends the load and returns every sample, in the order they were sent. */
  List<Sample> stop() throws InterruptedException {
    running = false;
    for (Thread thread : threads) {
      thread.join(60_000);
    }
    List<Sample> all = new ArrayList<>();
    samples.forEach(all::addAll);
    all.sort(Comparator.comparingLong(Sample::startNanos));
    return all;
  }

  /** The {@code q}-quantile (0 to 1) of the latencies of the samples that pass {@code filter}. */
  static long quantileMillis(List<Sample> samples, double q, Predicate<Sample> filter) {
    long[] millis = samples.stream().filter(filter).mapToLong(Sample::millis).sorted().toArray();
    if (millis.length == 0) {
      throw new IllegalStateException("no samples to take a quantile of");
    }
    return millis[(int) Math.min(millis.length - 1, Math.ceil(q * millis.length) - 1)];
  }

  private void run(AppClient client, String pathAndQuery, long pauseMillis, List<Sample> into) {
    while (running) {
      long start = System.nanoTime();
      int status;
      Reply reply;
      try {
        HttpResponse<String> response = client.get(pathAndQuery);
        status = response.statusCode();
        reply = Reply.parse(response.body());
      } catch (RuntimeException e) {
        status = -1;
        reply = Reply.parse("outcome=no answer\nmessage=" + e);
      }
      into.add(new Sample(start, System.nanoTime(), status, reply));
      try {
        Thread.sleep(pauseMillis);
      } catch (InterruptedException e) {
        return;
      }
    }
  }
}
