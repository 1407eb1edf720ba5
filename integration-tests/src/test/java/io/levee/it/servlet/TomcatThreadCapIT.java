package io.levee.it.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.RulesFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The default {@code system} limit in front of Tomcat with a small pool of worker threads (10)
 * under an open stream of six times what the application completes, about 100 requests a second.
 * The requests the threads cannot take wait in Tomcat's queue, where no limit sees them; left to
 * grow, that queue answers every request later than its client waits. Two pages: one that holds one
 * of 4 pooled permits for 40 ms (a query on a small connection pool: its latency rises with the
 * threads waiting for a permit), and one that waits a steady 100 ms (a downstream that never slows:
 * its latency stays flat however long the queue). Under the first, each thread refuses one queued
 * request after another, as often as the clients of a crowd that send again at once would be
 * refused, and the limit's probes let the calls in up to the threads and see them stop there: they
 * must find a stream held back by the threads, never a crowd. Under the second, nothing in the
 * latency shows the queue: the limit must see that the same threads ask again, all busy, and stay
 * below them.
 */
class TomcatThreadCapIT {
  private static final int CAPACITY = 100; // 4 permits / 40 ms, or 10 threads / 100 ms
  private static final String RULES =
      """
      version: 1
      system:
        adaptive: {}
        on-block: { status: 503 }
      """;

  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private ForkedApp app;

  @AfterEach
  void stop() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void anOpenStreamHeldBackByTheThreadsIsRefusedNotTakenForACrowd() {
    List<String> trace = overload("/held?pool&ms=40", "thread-cap-pool");
    assertThat(trace).as("the system limit's trace").noneMatch(l -> l.contains("a bounded crowd"));
    assertThat(trace)
        .as("probes that reached the threads and told them apart")
        .anyMatch(l -> l.contains("a stream held back by the container's threads"));
  }

  @Test
  void threadsThatAreTheNarrowestPointAreKeptAheadOfTheirQueue() {
    List<String> trace = overload("/held?ms=100", "thread-cap-flat");
    assertThat(trace)
        .as("the system limit's trace")
        .anyMatch(l -> l.contains("kept below the 10 threads that held the calls"));
  }

  /**
   * Starts the application, sends {@code page} at half the capacity for 3 s, then at six times it
   * for 16 s, checks that the last 6 s were answered in time at about the capacity, and returns the
   * system limit's trace.
   */
  private List<String> overload(String page, String name) {
    app =
        ForkedApp.of(TomcatApp.class)
            .jdk(Jdk.require(17))
            .agent("rules=" + RulesFile.write(name, RULES).toAbsolutePath() + ",log=debug")
            .systemProperty("levee.it.max-threads", "10")
            .systemProperty("levee.it.pool", "4")
            .name(name + "-tomcat-jdk17")
            .start();
    send(page, CAPACITY / 2, 3); // the limit learns the page's latency unloaded
    List<Sent> overload = send(page, 6 * CAPACITY, 16);

    // The last 6 s: answered in time at about the capacity, not queued behind the threads.
    long from = overload.get(0).at + TimeUnit.SECONDS.toNanos(10);
    long inTime =
        overload.stream()
            .filter(s -> s.at >= from && s.status == 200)
            .filter(s -> s.doneAt - s.at <= TimeUnit.SECONDS.toNanos(1))
            .count();
    assertThat(inTime / 6.0)
        .as("requests a second answered 200 within 1 s, over the last 6 s of the overload")
        .isGreaterThanOrEqualTo(0.6 * CAPACITY);
    return app.leveeLines().stream().filter(l -> l.contains("limit system:")).toList();
  }

  /** One request: when it was sent, its status (0 if it got no answer) and when that came. */
  private static final class Sent {
    final long at;
    volatile int status;
    volatile long doneAt;

    Sent(long at) {
      this.at = at;
    }
  }

  /** Sends {@code perSecond} requests a second for {@code seconds}, never waiting for answers. */
  private List<Sent> send(String page, int perSecond, int seconds) {
    List<Sent> sent = new ArrayList<>();
    List<CompletableFuture<?>> answers = new ArrayList<>();
    long period = TimeUnit.SECONDS.toNanos(1) / perSecond;
    long start = System.nanoTime();
    for (long i = 0; i < (long) perSecond * seconds; i++) {
      long due = start + i * period;
      long wait = due - System.nanoTime();
      if (wait > 0) {
        ForkedApp.sleep(TimeUnit.NANOSECONDS.toMillis(wait));
      }
      Sent s = new Sent(due);
      sent.add(s);
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(app.url(page))).timeout(Duration.ofSeconds(5)).build();
      answers.add(
          client
              .sendAsync(request, HttpResponse.BodyHandlers.discarding())
              .handle(
                  (r, e) -> {
                    s.status = r == null ? 0 : r.statusCode();
                    s.doneAt = System.nanoTime();
                    return null;
                  }));
    }
    CompletableFuture.allOf(answers.toArray(new CompletableFuture<?>[0])).join();
    return sent;
  }
}
