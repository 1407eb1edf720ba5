package io.levee.it.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.levee.it.support.AppClient;
import io.levee.it.support.ExactBucket;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.KeptConnection;
import io.levee.it.support.RulesFile;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the agent promises for inbound requests (SPEC §2, kind {@code servlet}), checked on one
 * container and JDK per subclass against one forked application. Each test uses its own resource,
 * so the tests do not take each other's tokens; limits of N per hour make the counts exact.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ServletContract {
  private static final int RATE = 40;
  private static final int BURST = 80;
  private static final String RULES =
      """
      version: 1
      resources:
        - name: rated
          match: { servlet: { paths: ["/rated/**"] } }
          rate-limit: { rate: 40/s, burst: 80 }
        - name: tenants
          match: { servlet: { paths: ["/tenants/**"] } }
          rate-limit: { rate: 5/h, burst: 5, per: "header:X-Tenant-ID" }
        - name: filtered
          match: { servlet: { paths: ["/counted/**"] } }
          rate-limit: { rate: 6/h, burst: 6 }
        - name: forwarded
          match: { servlet: { paths: ["/forward/**", "/fwd-target/**"] } }
          rate-limit: { rate: 6/h, burst: 6 }
        - name: async-rated
          match: { servlet: { paths: ["/async/rated/**"] } }
          rate-limit: { rate: 6/h, burst: 6 }
        - name: async-held
          match: { servlet: { paths: ["/async/held/**"] } }
          concurrency: { max: 1 }
        - name: shed
          match: { servlet: { paths: ["/shed/**"] } }
          rate-limit: { rate: 1/h, burst: 1 }
          on-block: { status: 503 }
      """;

  private ForkedApp app;
  private AppClient client;

  /** The application's main class (one container). */
  protected abstract Class<?> application();

  protected abstract int jdk();

  private String name() {
    return "servlet-" + application().getSimpleName() + "-jdk" + jdk();
  }

  @BeforeAll
  void start() {
    Path rules = RulesFile.write(name(), RULES);
    app = ForkedApp.of(application()).jdk(Jdk.require(jdk())).rules(rules).name(name()).start();
    client = new AppClient(app);
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void admitsRateTimesDurationPlusBurstAtThreeTimesTheRate() {
    AppClient.Paced run = client.paced("/rated/x", 3 * RATE, Duration.ofSeconds(3));
    double nominal = RATE * run.seconds() + BURST;
    List<Long> arrivals =
        client.get("/arrivals?prefix=/rated/").body().lines().map(Long::valueOf).sorted().toList();
    long exact = ExactBucket.admitted(arrivals, RATE, BURST);
    long admitted = run.count(200);
    System.out.printf(
        "%s: rate %d/s burst %d, %d requests sent in %.2f s: %d admitted; rate x time + burst ="
            + " %.0f, an exact bucket at the arrival times admits %d%n",
        name(), RATE, BURST, run.responses().size(), run.seconds(), admitted, nominal, exact);
    assertThat(arrivals).hasSize(run.responses().size());
    assertThat((double) admitted).isCloseTo(exact, within(exact * 0.10));
    assertThat((double) admitted).isLessThanOrEqualTo(nominal * 1.10);
    assertThat(run.count(429)).isEqualTo(run.responses().size() - admitted);
    run.responses().stream()
        .filter(r -> r.statusCode() == 429)
        .forEach(r -> assertThat(retryAfter(r)).isGreaterThanOrEqualTo(1));
  }

  @Test
  void keepsASeparateBucketPerTenant() {
    List<Integer> first = statuses(8, "/tenants/x", "X-Tenant-ID", "acme");
    List<Integer> second = statuses(6, "/tenants/x", "X-Tenant-ID", "globex");
    assertThat(first).containsExactly(200, 200, 200, 200, 200, 429, 429, 429);
    assertThat(second).containsExactly(200, 200, 200, 200, 200, 429);
  }

  @Test
  void countsAFilteredRequestOnce() {
    assertThat(statuses(8, "/counted/x")).containsExactly(200, 200, 200, 200, 200, 200, 429, 429);
  }

  @Test
  void countsAForwardedRequestOnce() {
    List<HttpResponse<String>> answers = answers(8, "/forward/x");
    assertThat(answers.get(0).body()).isEqualTo("ok /fwd-target/x");
    assertThat(answers.stream().map(HttpResponse::statusCode))
        .containsExactly(200, 200, 200, 200, 200, 200, 429, 429);
  }

  @Test
  void countsAnAsyncRequestOnceAndLetsItComplete() {
    List<HttpResponse<String>> answers = answers(8, "/async/rated/x?ms=20");
    assertThat(answers.stream().map(HttpResponse::statusCode))
        .containsExactly(200, 200, 200, 200, 200, 200, 429, 429);
    assertThat(answers.subList(0, 6)).allSatisfy(r -> assertThat(r.body()).isEqualTo("async done"));
  }

  @Test
  void holdsAnAsyncRequestsPermitUntilItCompletes() {
    // released on completion: one after the other, all pass a limit of one. A container may write
    // the response before it tells the async listeners that the request completed, so the next
    // request waits a moment; a permit that were never released would refuse it all the same.
    List<Integer> oneByOne = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      oneByOne.add(client.get("/async/held/x?ms=50").statusCode());
      ForkedApp.sleep(100);
    }
    assertThat(oneByOne).containsOnly(200);
    // held until completion: while one is in flight the others are refused
    List<HttpResponse<String>> together = client.concurrently(3, "/async/held/x?ms=1000");
    assertThat(together.stream().filter(r -> r.statusCode() == 200)).hasSize(1);
    assertThat(together.stream().filter(r -> r.statusCode() == 429)).hasSize(2);
  }

  @Test
  void neverShedsAnExcludedPath() {
    String rules =
        """
        version: 1
        system:
          exclude: ["/health"]
          adaptive: { min-limit: 1, max-limit: 1, initial-limit: 1 }
        """;
    try (ForkedApp system =
        ForkedApp.of(application())
            .jdk(Jdk.require(jdk()))
            .rules(RulesFile.write(name() + "-system", rules))
            .name(name() + "-system")
            .start()) {
      AppClient c = new AppClient(system);
      List<HttpResponse<String>> health = c.concurrently(6, "/health?ms=500");
      List<HttpResponse<String>> work = c.concurrently(6, "/work/x?ms=500");
      assertThat(health).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
      // the system limit is live: the same load on another path is shed
      assertThat(work).anySatisfy(r -> assertThat(r.statusCode()).isEqualTo(503));
    }
  }

  @Test
  void aSlowPageCannotTakeTheWholeSystemLimitFromAnotherPage() {
    // A fixed limit of 16 keeps a reserve of 2 for the pages holding less than their share.
    String rules =
        """
        version: 1
        system:
          adaptive: { min-limit: 16, max-limit: 16, initial-limit: 16 }
          on-block: { status: 503 }
        """;
    try (ForkedApp system =
        ForkedApp.of(application())
            .jdk(Jdk.require(jdk()))
            .rules(RulesFile.write(name() + "-pages", rules))
            .name(name() + "-pages")
            .start()) {
      AppClient c = new AppClient(system);
      assertThat(c.get("/work/fast?ms=0").statusCode()).isEqualTo(200);
      java.util.concurrent.CompletableFuture<List<HttpResponse<String>>> slow =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> c.concurrently(20, "/work/slow?ms=2000"));
      ForkedApp.sleep(700);
      List<Integer> fast =
          List.of(c.get("/work/fast?ms=0").statusCode(), c.get("/work/fast?ms=0").statusCode());
      List<Integer> slowStatuses = slow.join().stream().map(HttpResponse::statusCode).toList();
      assertThat(fast).as("the fast page while the slow one holds its share").containsOnly(200);
      assertThat(slowStatuses.stream().filter(st -> st == 200))
          .as("slow pages admitted")
          .hasSize(14);
      assertThat(slowStatuses.stream().filter(st -> st == 503)).hasSize(6);
    }
  }

  @Test
  void keepsTheConnectionAfterItTurnsARequestAwayWithA503() throws Exception {
    try (KeptConnection connection = new KeptConnection(app.port())) {
      assertThat(connection.get("/shed/x").status()).isEqualTo(200);
      KeptConnection.Answer shed = connection.get("/shed/x");
      assertThat(shed.status()).isEqualTo(503);
      assertThat(shed.body()).startsWith("levee: ");
      assertThat(shed.saysClose()).as("Connection: close on Levee's 503").isFalse();
      KeptConnection.Answer next = connection.get("/work/after-shed");
      assertThat(next).as("the next request on the same connection").isNotNull();
      assertThat(next.body()).isEqualTo("ok /work/after-shed");
    }
    // The application's own 503 is left to the container: Tomcat still closes after it.
    try (KeptConnection connection = new KeptConnection(app.port())) {
      KeptConnection.Answer own = connection.get("/work/own?status=503");
      assertThat(own.status()).isEqualTo(503);
      assertThat(own.saysClose()).isEqualTo(closesAfterA503());
    }
  }

  /** Whether the container closes a connection after a 503 of the application's own. */
  protected abstract boolean closesAfterA503();

  private List<Integer> statuses(int count, String path, String... headers) {
    return answers(count, path, headers).stream().map(HttpResponse::statusCode).toList();
  }

  private List<HttpResponse<String>> answers(int count, String path, String... headers) {
    return java.util.stream.IntStream.range(0, count)
        .mapToObj(i -> client.get(path, headers))
        .toList();
  }

  private static long retryAfter(HttpResponse<String> r) {
    return Long.parseLong(r.headers().firstValue("Retry-After").orElse("-1").trim());
  }
}
