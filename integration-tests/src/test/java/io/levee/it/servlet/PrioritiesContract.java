package io.levee.it.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.RulesFile;
import io.levee.it.support.StatusRows;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Priorities under a full {@code system} limit (SPEC §5.4) with real requests: the limit is fixed
 * at 4 (minimum, maximum and initial alike, so no window moves it), and requests that sleep in the
 * application hold its permits while the test asks which priorities still get in. At a limit of 4
 * the system rule keeps no reserve for pages (its eighth rounds to 0), and the normal requests are
 * all of one page, which so has no floor under it, so the counts are exact: normal requests are
 * admitted while fewer than 4 are in flight, sheddable ones while fewer than 3 (one below the limit
 * while normal requests are about), critical ones while fewer than 4 critical requests are.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class PrioritiesContract {
  private static final int LIMIT = 4;
  private static final String RULES =
      """
      version: 1
      system:
        adaptive: { min-limit: 4, max-limit: 4, initial-limit: 4 }
        on-block: { status: 503 }
      resources:
        - name: critical
          match: { servlet: { paths: ["/critical/**"] } }
          priority: critical
        - name: normal
          match: { servlet: { paths: ["/normal/**"] } }
          priority: normal
        - name: sheddable
          match: { servlet: { paths: ["/sheddable/**"] } }
          priority: sheddable
      """;

  /** Long enough to outlast every check made while they hold their permits. */
  private static final String HELD = "?ms=6000";

  private ForkedApp app;
  private AppClient client;
  private int status;
  private final ExecutorService senders = Executors.newCachedThreadPool();

  /** The application's main class (one container). */
  protected abstract Class<?> application();

  protected abstract int jdk();

  private String name() {
    return "priorities-" + application().getSimpleName() + "-jdk" + jdk();
  }

  @BeforeAll
  void start() {
    status = StatusRows.freePort();
    String options =
        "rules=" + RulesFile.write(name(), RULES).toAbsolutePath() + ",http=127.0.0.1:" + status;
    app = ForkedApp.of(application()).jdk(Jdk.require(jdk())).agent(options).name(name()).start();
    client = new AppClient(app);
  }

  @AfterAll
  void stop() {
    senders.shutdownNow();
    if (app != null) {
      app.close();
    }
  }

  @Test
  void shedsSheddableFirstThenNormalAndAdmitsCriticalUntilCriticalAloneFillsTheLimit()
      throws Exception {
    // every priority gets in while the limit has room
    assertThat(statusOf("/sheddable/warm")).isEqualTo(200);
    assertThat(statusOf("/normal/warm")).isEqualTo(200);
    assertThat(statusOf("/critical/warm")).isEqualTo(200);

    List<CompletableFuture<HttpResponse<String>>> held = hold("/normal/held", LIMIT - 1);
    awaitSystemInFlight(LIMIT - 1);
    assertThat(statusOf("/sheddable/a"))
        .as("sheddable, one below the limit while normal requests are about")
        .isEqualTo(503);
    assertThat(statusOf("/normal/a")).as("normal, one below the limit").isEqualTo(200);

    held.addAll(hold("/normal/held", 1));
    awaitSystemInFlight(LIMIT);
    assertThat(statusOf("/normal/b")).as("normal, at the limit").isEqualTo(503);
    assertThat(statusOf("/sheddable/b")).as("sheddable, at the limit").isEqualTo(503);
    assertThat(statusOf("/critical/b")).as("critical, at the limit").isEqualTo(200);

    // critical requests pass a limit that normal ones fill, until critical ones alone fill it
    List<Integer> critical =
        client.concurrently(LIMIT + 1, "/critical/c?ms=1500").stream()
            .map(HttpResponse::statusCode)
            .toList();
    assertThat(critical).filteredOn(s -> s == 200).hasSize(LIMIT);
    assertThat(critical).filteredOn(s -> s == 503).hasSize(1);

    assertThat(held.stream().map(f -> f.join().statusCode()))
        .as("the requests that held the limit")
        .containsOnly(200);
    StatusRows.Row system = StatusRows.get(status).get("system");
    assertThat(system.blocked()).containsOnlyKeys("system").containsEntry("system", 4L);
    assertThat(StatusRows.get(status).get("critical").blocked()).containsEntry("system", 1L);
  }

  private int statusOf(String path) {
    return client.get(path).statusCode();
  }

  /**
   * Starts {@code count} requests to {@code path} that sleep in the application, each on a thread
   * of its own (the common pool may have a single thread, which would send them one at a time).
   */
  private List<CompletableFuture<HttpResponse<String>>> hold(String path, int count) {
    List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      held.add(CompletableFuture.supplyAsync(() -> client.get(path + HELD), senders));
    }
    return held;
  }

  /** Waits until the system rule counts {@code n} requests in flight, as its status shows. */
  private void awaitSystemInFlight(long n) throws Exception {
    long until = System.nanoTime() + 5_000_000_000L;
    long seen = -1;
    while (System.nanoTime() < until) {
      seen = StatusRows.get(status).get("system").inFlight();
      if (seen == n) {
        return;
      }
      ForkedApp.sleep(20);
    }
    throw new AssertionError("the system rule shows " + seen + " in flight, not " + n);
  }
}
