package io.levee.it.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.workload.WorkloadApp;
import io.levee.it.reliability.AgentEndpoint.Row;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 8, no leaked permits and no leaked memory, through the packaged agent: a million calls
 * (system property {@code levee.it.leaks.calls}) over every path in one JVM, at the same time:
 * inbound requests that answer, are blocked, throw, complete asynchronously or time out
 * asynchronously; {@code HttpURLConnection} calls to a real server that are admitted, blocked,
 * refused, answered 500 behind a breaker, never read, disconnected or left to the collector; JDBC
 * statements on H2 that are admitted, blocked, fail or are never closed. Afterwards every resource
 * has reported the end of every call it admitted, and the heap after full collections is where it
 * was after the warm-up, within {@link #TOLERANCE}: far less than one leaked 16-byte object per
 * call would add.
 */
class NoLeaksIT {
  private static final long CALLS = Long.getLong("levee.it.leaks.calls", 1_000_000L);
  private static final long TOLERANCE = 5L * 1024 * 1024;

  private static final String RULES =
      """
      version: 1
      resources:
        - name: pages
          match: { servlet: { paths: ["/svc/ok", "/svc/throw", "/svc/async", "/svc/async-timeout"] } }
          concurrency: { max: 500 }
        - name: pages-blocked
          match: { servlet: { paths: ["/svc/blocked"] } }
          rate-limit: { rate: 1/s, burst: 1 }
        - name: partner
          match: { http: { urls: ["%1$s/ok", "%1$s/ok/**"] } }
          concurrency: { max: 100000 }
        - name: partner-blocked
          match: { http: { urls: ["%1$s/blocked", "%1$s/blocked/**"] } }
          rate-limit: { rate: 1/s, burst: 1 }
        - name: partner-failing
          match: { http: { urls: ["%1$s/fail", "%1$s/fail/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 10, window: 10s, open-for: 50ms }
        - name: partner-refused
          match: { http: { urls: ["%2$s/**"] } }
          timeouts: { connect: 2s }
        - name: items-db
          match: { jdbc: { urls: ["jdbc:h2:mem:*"], tables: [items] } }
          concurrency: { max: 64 }
        - name: audit-db
          match: { jdbc: { urls: ["jdbc:h2:mem:*"], tables: [audit] } }
          rate-limit: { rate: 1/s, burst: 1 }
        - name: other-db
          match: { jdbc: { urls: ["jdbc:h2:mem:*"] } }
          concurrency: { max: 64 }
      """;

  static final String HTTP_MIX =
      "ok:30,blocked:50,refused:6,fail:6,unread:2,disconnect:3,dropped:3";
  static final String JDBC_MIX = "select:45,plain:10,blocked:20,bad:10,unclosed:15";

  @Test
  @Timeout(600)
  void aMillionCallsOverEveryPathLeaveNothingInFlightAndTheHeapWhereItWas() throws Exception {
    try (WorkloadPartner partner = new WorkloadPartner()) {
      String refused = "http://127.0.0.1:" + WorkloadPartner.refusedPort();
      AgentEndpoint endpoint = new AgentEndpoint(AgentEndpoint.freePort());
      String rules = RULES.formatted(partner.base(), refused);
      try (ForkedApp app =
          ForkedApp.of(WorkloadApp.class)
              .jdk(Jdk.require(17))
              .agent(
                  "rules="
                      + RulesFile.write("no-leaks", rules).toAbsolutePath()
                      + ","
                      + endpoint.option())
              .name("no-leaks")
              .start()) {
        Workload workload = new Workload(app, partner.base(), refused);
        workload.everyPath(CALLS / 20); // warm-up: classes, caches, pools and buffers
        long before = workload.usedHeapAfterGc();

        long start = System.nanoTime();
        Workload.Counts counts = workload.everyPath(CALLS);
        long millis = (System.nanoTime() - start) / 1_000_000;

        workload.usedHeapAfterGc(); // collects the connections left to the collector...
        workload.http(10, "ok:1", false); // ...whose permits the next connection releases
        long after = workload.usedHeapAfterGc();

        System.out.printf(
            "no leaks: %,d calls in %,d ms: servlet %s, async timeouts %s; http %s; jdbc %s%n"
                + "no leaks: heap after full GC %,d KB before, %,d KB after (%+,d KB; tolerance"
                + " %,d KB)%n",
            counts.total(),
            millis,
            counts.servlet(),
            counts.asyncTimeouts(),
            counts.http().raw().replace('\n', ' '),
            counts.jdbc().raw().replace('\n', ' '),
            before / 1024,
            after / 1024,
            (after - before) / 1024,
            TOLERANCE / 1024);
        for (Row row : endpoint.status()) {
          System.out.println("no leaks: " + row);
          assertThat(row.inFlight()).as(row.toString()).isZero();
          assertThat(row.unfinished()).as(row.toString()).isZero();
          assertThat(row.passed()).as(row.toString()).isPositive();
        }
        assertThat(counts.total()).isGreaterThanOrEqualTo(CALLS);
        assertEveryPathTaken(counts);
        assertThat(after - before).isLessThan(TOLERANCE);
        assertThat(app.leveeLines()).noneMatch(l -> l.contains("ERROR"));
      }
    }
  }

  private static void assertEveryPathTaken(Workload.Counts counts) {
    ServletLoad servlet = counts.servlet();
    assertThat(servlet.count(200)).isPositive();
    assertThat(servlet.count(429)).isPositive();
    assertThat(servlet.count(500)).isPositive();
    assertThat(counts.asyncTimeouts().count(500) + counts.asyncTimeouts().count(200))
        .isEqualTo(counts.asyncTimeouts().total());
    Reply http = counts.http();
    for (String key :
        new String[] {
          "ok.ok",
          "blocked.levee",
          "refused.exception",
          "fail.status500",
          "fail.levee",
          "unread.ok",
          "disconnect.ok",
          "dropped.ok"
        }) {
      assertThat(http.number(key)).as("http " + key + " in " + http.raw()).isPositive();
    }
    Reply jdbc = counts.jdbc();
    for (String key :
        new String[] {"select.ok", "plain.ok", "blocked.levee", "bad.exception", "unclosed.ok"}) {
      assertThat(jdbc.number(key)).as("jdbc " + key + " in " + jdbc.raw()).isPositive();
    }
  }
}
