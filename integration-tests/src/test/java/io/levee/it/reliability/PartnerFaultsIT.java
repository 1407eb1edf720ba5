package io.levee.it.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.reliability.BreakerTransitions.Transition;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 8, partner faults: an outbound partner that hangs, refuses connections or flaps. The
 * injected read timeout and the breaker keep the application responsive, the breaker's open time
 * grows while the partner flaps, and it never moves faster than its back-off allows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PartnerFaultsIT {
  private static final long OPEN_FOR_MS = 300;
  private static final long OPEN_FOR_MAX_MS = 2_000;

  /** How far a measured open may stray from its bounds: log polling and the caller's pacing. */
  private static final long EARLY_MS = 60;

  private static final long LATE_MS = 200;

  // window 5s outlasts a flap period, so the count of consecutive opens never resets here
  private static final String RULES =
      """
      version: 1
      resources:
        - name: hanging
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          timeouts: { read: 300ms }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 3, window: 10s, open-for: 60s }
        - name: refusing
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 3, window: 10s, open-for: 60s }
        - name: flapping
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 3, window: 5s, half-open-calls: 1,
                             open-for: 300ms, open-for-max: 2s }
      """;

  private final LocalHttpServer hanging = LocalHttpServer.start();
  private final LocalHttpServer refusing = LocalHttpServer.start();
  private final LocalHttpServer flapping = LocalHttpServer.start();
  private ForkedApp app;
  private AppClient client;

  @BeforeAll
  void start() {
    String rules = RULES.formatted(hanging.port(), refusing.port(), flapping.port());
    app =
        ForkedApp.of(TomcatApp.class)
            .jdk(Jdk.require(17))
            .rules(RulesFile.write("partner-faults", rules))
            .name("partner-faults")
            .start();
    client = new AppClient(app);
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
    Stream.of(hanging, refusing, flapping).forEach(LocalHttpServer::close);
  }

  @Test
  void aHangingPartnerTimesOutThenFailsFastWhileOtherPagesKeepAnswering() throws Exception {
    for (int i = 0; i < 20; i++) {
      client.get("/plain/page"); // warm, so that a slow page below is the partner's doing
    }
    hanging.stall();
    // one at a time first: the injected timeout alone, then eight at once with other pages
    List<Reply> alone = List.of(call(hanging, ""), call(hanging, ""));
    AtomicBoolean partnerHangs = new AtomicBoolean(true);
    ExecutorService pages = Executors.newSingleThreadExecutor();
    Future<List<Long>> otherPages = pages.submit(() -> plainPageMillisWhile(partnerHangs));
    List<Reply> timedOut;
    try {
      timedOut =
          client.concurrently(8, "/http?url=" + AppClient.encode(hanging.url("/x"))).stream()
              .map(r -> Reply.parse(r.body()))
              .toList();
    } finally {
      partnerHangs.set(false);
      pages.shutdown();
    }
    List<Long> pageMillis = otherPages.get(30, TimeUnit.SECONDS);

    for (Reply r : Stream.concat(alone.stream(), timedOut.stream()).toList()) {
      assertThat(r.get("class")).as(r.raw()).isEqualTo("java.net.SocketTimeoutException");
      assertThat(r.number("elapsedMs")).as(r.raw()).isBetween(250L, 2_000L);
    }
    System.out.printf(
        "hanging partner: timeouts after %s ms alone, %s ms eight at once;"
            + " other pages meanwhile (%d): %s ms%n",
        alone.stream().map(r -> r.get("elapsedMs")).toList(),
        timedOut.stream().map(r -> r.get("elapsedMs")).toList(), pageMillis.size(), pageMillis);
    assertThat(pageMillis).hasSizeGreaterThanOrEqualTo(3).allMatch(ms -> ms < 1_000L);

    int receivedWhenOpened = hanging.received();
    Reply blocked = call(hanging, "");
    assertThat(blocked.get("outcome")).as(blocked.raw()).isEqualTo("exception");
    assertThat(blocked.get("message")).startsWith("levee:").contains("hanging");
    assertThat(blocked.number("elapsedMs")).isLessThan(1_000L);
    Reply many = call(hanging, "&repeat=50");
    assertThat(many.number("leveeExceptions")).as(many.raw()).isEqualTo(50);
    assertThat(many.number("medianNanos")).isLessThan(20_000_000L);
    assertThat(hanging.received()).isEqualTo(receivedWhenOpened);
  }

  @Test
  void aRefusingPartnerOpensTheBreakerOnConnectErrors() {
    refusing.refuse();
    for (int i = 0; i < 3; i++) {
      Reply r = call(refusing, "");
      assertThat(r.get("class")).as(r.raw()).isEqualTo("java.net.ConnectException");
    }
    refusing.ok();
    Reply many = call(refusing, "&repeat=50");
    assertThat(many.number("leveeExceptions")).as(many.raw()).isEqualTo(50);
    assertThat(many.get("message")).startsWith("levee:").contains("refusing");
    assertThat(refusing.received()).isZero();
  }

  @Test
  void aFlappingPartnerMakesTheOpenTimeGrowAndNothingMovesFasterThanTheBackOff()
      throws Exception {
    BreakerTransitions log = new BreakerTransitions(app, "flapping");
    long start = System.nanoTime();
    long end = start + 8_000_000_000L;
    int calls = 0;
    boolean failing = false;
    while (System.nanoTime() < end) {
      boolean shouldFail = (System.nanoTime() - start) / 1_000_000_000L % 2 == 0;
      if (shouldFail != failing) {
        failing = shouldFail;
        if (failing) {
          flapping.fail();
        } else {
          flapping.ok();
        }
      }
      call(flapping, "");
      calls++;
      Thread.sleep(10);
    }
    List<Transition> transitions = log.stop();

    List<Long> opens = openMillis(transitions);
    System.out.printf(
        "flapping partner: %d calls in 8 s, %d transitions, open periods %s ms%n",
        calls, transitions.size(), opens);
    assertThat(opens).as(transitions.toString()).hasSizeGreaterThanOrEqualTo(4);
    for (int k = 1; k <= opens.size(); k++) {
      long base = Math.min(OPEN_FOR_MAX_MS, OPEN_FOR_MS << Math.min(k - 1, 20));
      long low = k == 1 ? OPEN_FOR_MS : Math.max(OPEN_FOR_MS, base / 2);
      assertThat(opens.get(k - 1))
          .as("open #%d of %s", k, opens)
          .isBetween(low - EARLY_MS, base + LATE_MS);
    }
    assertThat(opens.stream().mapToLong(Long::longValue).max().getAsLong())
        .as("the back-off grew to at least half the cap: %s", opens)
        .isGreaterThanOrEqualTo(OPEN_FOR_MAX_MS / 2 - EARLY_MS);
  }

  /**
   * The length of each open period: from a transition to open to the next transition out of it.
   * Every transition must be a legal step (closed → open, open → half-open, half-open → open or
   * closed), and an open period still running at the end is left out.
   */
  private static List<Long> openMillis(List<Transition> transitions) {
    List<Long> opens = new ArrayList<>();
    Transition opened = null;
    for (Transition t : transitions) {
      assertThat(t.from() + " -> " + t.to())
          .isIn("closed -> open", "open -> half-open", "half-open -> open", "half-open -> closed");
      if (opened != null) {
        assertThat(t.to()).as("open only ends by going half-open").isEqualTo("half-open");
        opens.add((t.atNanos() - opened.atNanos()) / 1_000_000);
        opened = null;
      }
      if (t.to().equals("open")) {
        opened = t;
      }
    }
    return opens;
  }

  private List<Long> plainPageMillisWhile(AtomicBoolean condition) {
    List<Long> millis = new ArrayList<>();
    while (condition.get()) {
      long t0 = System.nanoTime();
      assertThat(client.get("/plain/page").body()).startsWith("ok /plain/page");
      millis.add((System.nanoTime() - t0) / 1_000_000);
    }
    return millis;
  }

  private Reply call(LocalHttpServer server, String extra) {
    String url = AppClient.encode(server.url("/x"));
    return Reply.parse(client.get("/http?url=" + url + extra).body());
  }
}
