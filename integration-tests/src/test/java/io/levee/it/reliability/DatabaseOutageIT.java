package io.levee.it.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.reliability.BreakerTransitions.Transition;
import io.levee.it.reliability.Traffic.Sample;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 8, database outage: an application doing JDBC through HikariCP on a real PostgreSQL under
 * steady load, and the server stopped mid-run then started again. The breaker on the database opens
 * within its window, a page that never touches the database keeps its latency, the pool is not
 * poisoned by the calls Levee refuses (no flood of new connections once the database is back), and
 * the service answers again within the open time plus the ramp after the database returns.
 *
 * <p>The cluster is this test's own, on a free port: the shared one of {@code run-tests.sh} is
 * never stopped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatabaseOutageIT {
  private static final long WINDOW_MS = 5_000;
  private static final long POOL_TIMEOUT_MS = 1_000;

  /**
   * A rate over a rolling window counts the healthy calls made just before the outage, so with
   * fewer calls during it (each waits for the pool) the breaker trips up to a window after the
   * server is down, give or take a bucket (a tenth of it), the pool timeout the failing calls wait
   * and the log's polling.
   */
  private static final long OPEN_SLACK_MS = WINDOW_MS / 10 + POOL_TIMEOUT_MS + 200;

  private static final long OPEN_FOR_MAX_MS = 4_000;

  /** Three ramp steps of a tenth of the window each (docs/rules.md, circuit-breaker). */
  private static final long RAMP_MS = 3 * WINDOW_MS / 10;

  /** Slack on the recovery bound: HikariCP waits up to 5 s between its reconnect attempts. */
  private static final long RECOVERY_MARGIN_MS = 5_000;

  private static final long BASELINE_MS = 4_000;
  private static final long OUTAGE_MS = 6_000;
  private static final long AFTER_RECOVERY_MS = 4_000;

  // The pool's getConnection is guarded too (CONNECT): while the database is down the pool is
  // empty, and its getConnection is where the application meets the outage. The breaker learns of
  // it when that call fails, after the pool's connection timeout: so that timeout (1 s here) must
  // be well below the window.
  private static final String RULES =
      """
      version: 1
      resources:
        - name: orders-db
          match: { jdbc: { urls: ["jdbc:postgresql://127.0.0.1:%d/levee"],
                           operations: [CONNECT, SELECT] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 5, window: 5s, open-for: 1s,
                             open-for-max: 4s, half-open-calls: 2 }
      """;

  private static final String DB_PAGE =
      "/jdbc?db=pg&pool=hikari&sql=" + AppClient.encode("select count(*) from orders");
  private static final String PLAIN_PAGE = "/plain/page";

  private PrivatePostgres pg;
  private ForkedApp app;
  private AppClient client;

  @BeforeAll
  void start() throws Exception {
    pg = PrivatePostgres.start();
    try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password());
        Statement s = c.createStatement()) {
      s.execute("create table orders (id int primary key, total numeric)");
      s.execute("insert into orders select i, i * 1.5 from generate_series(1, 100) i");
    }
    app =
        ForkedApp.of(TomcatApp.class)
            .jdk(Jdk.require(17))
            .rules(RulesFile.write("database-outage", RULES.formatted(pg.port())))
            .env("LEVEE_PG_URL", pg.url())
            .env("LEVEE_PG_USER", pg.user())
            .env("LEVEE_PG_PASSWORD", pg.password())
            .env("LEVEE_POOL_TIMEOUT_MS", String.valueOf(POOL_TIMEOUT_MS))
            .name("database-outage")
            .start();
    client = new AppClient(app);
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
    if (pg != null) {
      pg.close();
    }
  }

  @Test
  void theBreakerOpensOtherPagesKeepTheirLatencyThePoolSurvivesAndTheServiceComesBack()
      throws Exception {
    for (int i = 0; i < 20; i++) {
      client.get(PLAIN_PAGE);
      assertThat(Reply.parse(client.get(DB_PAGE).body()).get("value")).isEqualTo("100");
    }
    BreakerTransitions log = new BreakerTransitions(app, "orders-db");
    Traffic db = Traffic.start(client, DB_PAGE, 4, 5);
    Traffic plain = Traffic.start(client, PLAIN_PAGE, 1, 10);
    Thread.sleep(BASELINE_MS);

    long sessionsBefore = pg.sessions();
    long stopAt = System.nanoTime();
    pg.halt();
    long downAt = System.nanoTime();
    Thread.sleep(OUTAGE_MS);
    Reply poolAtReturn = pool();
    pg.resume();
    long backAt = System.nanoTime();
    Thread.sleep(OPEN_FOR_MAX_MS + RAMP_MS + RECOVERY_MARGIN_MS + AFTER_RECOVERY_MS);
    List<Sample> dbSamples = db.stop();
    List<Sample> plainSamples = plain.stop();
    List<Transition> transitions = log.stop();
    Reply poolAtEnd = pool();
    // the later query's own session is in the count, the earlier one's was already
    long sessionsAfterReturn = pg.sessions() - sessionsBefore - 1;

    List<Sample> outage = dbSamples.stream().filter(s -> s.startedWithin(stopAt, backAt)).toList();
    System.out.printf(
        "database outage: breaker %s; database page answers during the outage: %s%n",
        describe(transitions, stopAt), outcomes(outage));
    assertThat(transitions)
        .as("the breaker stays closed before the outage")
        .allMatch(t -> t.atNanos() >= stopAt);
    Transition opened =
        transitions.stream()
            .filter(t -> t.to().equals("open"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("the breaker never opened"));
    long openedAfterMs = (opened.atNanos() - downAt) / 1_000_000;

    long plainBefore = Traffic.quantileMillis(plainSamples, 0.99, s -> s.endNanos() < stopAt);
    long plainDuring =
        Traffic.quantileMillis(plainSamples, 0.99, s -> s.startedWithin(stopAt, backAt));

    Predicate<Sample> refused = s -> s.reply().get("message").startsWith("levee:");
    long refusedInOutage = outage.stream().filter(refused).count();

    Sample firstOk =
        dbSamples.stream()
            .filter(s -> s.startNanos() >= backAt && s.reply().ok())
            .findFirst()
            .orElseThrow(() -> new AssertionError("the database page never answered again"));
    long recoveryMs = (firstOk.endNanos() - backAt) / 1_000_000;
    // CONNECT and SELECT share one breaker, and it decides each call (SPEC §2): while it is
    // half-open or ramping after the return, a request whose getConnection was admitted may have
    // its statement refused on the connection it holds. That is expected; what the specification
    // implies is that such a refusal is a transient one with SQLState 53000 (so the pool keeps the
    // connection, checked by the session count below) and that it ends with the ramp: a statement
    // refused on a held connection started before the last close plus the ramp (CircuitBreaker's
    // class comment: three steps of window/10, then all calls). The close is stamped when the test
    // saw its log line, never before it happened, so the bound needs no slack.
    List<Sample> heldRefusals =
        dbSamples.stream()
            .filter(s -> s.startNanos() >= backAt && refused.test(s))
            .filter(s -> s.reply().get("phase").equals("execute"))
            .toList();
    long refusedOnHeldConnection = heldRefusals.size();
    Transition closed =
        transitions.stream()
            .filter(t -> t.to().equals("closed"))
            .reduce((a, b) -> b)
            .orElseThrow(() -> new AssertionError("the breaker never closed again"));
    long rampEnd = closed.atNanos() + RAMP_MS * 1_000_000;
    long tailFrom = backAt + (OPEN_FOR_MAX_MS + RAMP_MS + RECOVERY_MARGIN_MS) * 1_000_000;
    List<Sample> tail = dbSamples.stream().filter(s -> s.startNanos() >= tailFrom).toList();

    System.out.printf(
        "database outage: server down %d ms after the stop began; breaker open %d ms after"
            + " it was down (window %d ms);"
            + " plain page p99 %d ms before, %d ms during the outage (%d and %d requests);"
            + " %d of %d database page requests refused by Levee during the outage;"
            + " database page answers again %d ms after the server is back (bound %d ms);"
            + " %d statements refused on a borrowed connection after the return;"
            + " sessions the database accepted after the return: %d (pool max %s);"
            + " pool before the return %s, at the end %s%n",
        (downAt - stopAt) / 1_000_000,
        openedAfterMs,
        WINDOW_MS,
        plainBefore,
        plainDuring,
        plainSamples.stream().filter(s -> s.endNanos() < stopAt).count(),
        plainSamples.stream().filter(s -> s.startedWithin(stopAt, backAt)).count(),
        refusedInOutage,
        outage.size(),
        recoveryMs,
        OPEN_FOR_MAX_MS + RAMP_MS + RECOVERY_MARGIN_MS,
        refusedOnHeldConnection,
        sessionsAfterReturn,
        poolAtEnd.get("max"),
        poolAtReturn.values(),
        poolAtEnd.values());

    assertThat(openedAfterMs).isLessThan(WINDOW_MS + OPEN_SLACK_MS);
    assertThat(plainSamples).allMatch(s -> s.status() == 200);
    assertThat(plainDuring).isLessThan(1_000L);
    assertThat(refusedInOutage).isGreaterThan(outage.size() / 2L);
    assertThat(recoveryMs).isLessThan(OPEN_FOR_MAX_MS + RAMP_MS + RECOVERY_MARGIN_MS);
    assertThat(heldRefusals)
        .allSatisfy(
            s -> {
              assertThat(s.reply().get("class"))
                  .as(s.reply().raw())
                  .isEqualTo("java.sql.SQLTransientException");
              assertThat(s.reply().get("sqlState")).as(s.reply().raw()).isEqualTo("53000");
              assertThat(s.startNanos()).as("refused after the ramp").isLessThan(rampEnd);
            });
    assertThat(transitions.get(transitions.size() - 1).to())
        .as(describe(transitions, stopAt))
        .isEqualTo("closed");
    assertThat(sessionsAfterReturn).isLessThanOrEqualTo(poolAtEnd.number("max"));
    assertThat(tail).as(outcomes(tail).toString()).isNotEmpty().allMatch(s -> s.reply().ok());
  }

  private Reply pool() {
    return Reply.parse(client.get("/pool?db=pg").body());
  }

  /** How many answers of each kind: ok, or the phase, exception class and message start. */
  private static Map<String, Long> outcomes(List<Sample> samples) {
    return samples.stream()
        .collect(
            Collectors.groupingBy(
                s -> s.reply().ok() ? "ok" : failure(s.reply()),
                TreeMap::new,
                Collectors.counting()));
  }

  private static String failure(Reply r) {
    String message = r.get("message");
    return r.get("phase")
        + " "
        + r.get("class").replaceAll(".*\\.", "")
        + " "
        + message.substring(0, Math.min(40, message.length()));
  }

  private static String describe(List<Transition> transitions, long zero) {
    return transitions.stream()
        .map(t -> t.from() + "->" + t.to() + "@" + (t.atNanos() - zero) / 1_000_000 + "ms")
        .toList()
        .toString();
  }
}
