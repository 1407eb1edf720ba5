package io.levee.it.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.workload.WorkloadApp;
import io.levee.it.reliability.ServletLoad.Request;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 8, bounded state, through the packaged agent: a million distinct keys (system property
 * {@code levee.it.bounds.keys}), every call with its own, at once: outbound URLs with an id in the
 * path (four tenths), SQL with inlined literals (half), and tenant keys of per-key rate limits by
 * header and by query parameter, on inbound paths with an id (a tenth, as each is a network round
 * trip). The agent's match caches and per-key buckets are bounded (4,096 URLs and paths, SQL up to
 * 1 M characters, {@code max-keys} buckets per resource), so the heap after full collections grows
 * by far less than {@link #BOUND} over a baseline taken after a warm-up with a handful of keys,
 * {@code levee.keys.evicted} counts every bucket let go, and the limits and breakers still work.
 */
class BoundedStateIT {
  private static final long KEYS = Long.getLong("levee.it.bounds.keys", 1_000_000L);

  /** {@code max-keys}: the default 10,000 for a million keys, so that most tenants are evicted. */
  private static final int MAX_KEYS = (int) Math.max(100, Math.min(10_000, KEYS / 100));

  private static final long BOUND = 50L * 1024 * 1024;

  private static final String RULES =
      """
      version: 1
      settings: { max-keys: %3$d }
      resources:
        - name: tenants
          match: { servlet: { paths: ["/tenant/**"] } }
          rate-limit: { rate: 1/s, burst: 1, per: header:X-Tenant-ID }
        - name: tenants-by-param
          match: { servlet: { paths: ["/svc/**"] } }
          rate-limit: { rate: 1/s, burst: 1, per: param:tenant }
        - name: partner
          match: { http: { urls: ["%1$s/ok/**"] } }
          concurrency: { max: 100000 }
        - name: partner-blocked
          match: { http: { urls: ["%1$s/blocked/**"] } }
          rate-limit: { rate: 1/s, burst: 1 }
        - name: partner-failing
          match: { http: { urls: ["%1$s/fail/**"] } }
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

  private static final String HTTP_MIX = "ok:40,blocked:50,fail:5,refused:5";
  private static final String JDBC_MIX = "select:50,plain:20,blocked:20,bad:5,unclosed:5";

  @Test
  @Timeout(600)
  void aMillionDistinctKeysKeepTheAgentSmallCountEvictionsAndStillProtect() throws Exception {
    try (WorkloadPartner partner = new WorkloadPartner()) {
      String refused = "http://127.0.0.1:" + WorkloadPartner.refusedPort();
      AgentEndpoint endpoint = new AgentEndpoint(AgentEndpoint.freePort());
      String rules = RULES.formatted(partner.base(), refused, MAX_KEYS);
      try (ForkedApp app =
          ForkedApp.of(WorkloadApp.class)
              .jdk(Jdk.require(17))
              .agent(
                  "rules="
                      + RulesFile.write("bounded-state", rules).toAbsolutePath()
                      + ","
                      + endpoint.option())
              .name("bounded-state")
              .start()) {
        Workload workload = new Workload(app, partner.base(), refused);
        long tenantKeys = KEYS / 10;
        long urls = KEYS * 4 / 10;
        long sql = KEYS - tenantKeys - urls;
        // warm-up with the same calls but one key each, so the baseline holds classes, not keys
        workload.servlet(2_000, i -> tenant(i, "warm"));
        workload.http(2_000, HTTP_MIX, false);
        workload.jdbc(2_000, JDBC_MIX, false);
        long before = workload.usedHeapAfterGc();

        long start = System.nanoTime();
        CompletableFuture<Reply> http =
            CompletableFuture.supplyAsync(() -> workload.http(urls, HTTP_MIX, true));
        CompletableFuture<Reply> jdbc =
            CompletableFuture.supplyAsync(() -> workload.jdbc(sql, JDBC_MIX, true));
        ServletLoad tenants = workload.servlet(tenantKeys, i -> tenant(i, "t" + i));
        Reply httpCounts = http.join();
        Reply jdbcCounts = jdbc.join();
        long millis = (System.nanoTime() - start) / 1_000_000;
        long after = workload.usedHeapAfterGc();

        double byHeader = endpoint.metric("levee_keys_evicted_total{resource=\"tenants\"}");
        double byParam = endpoint.metric("levee_keys_evicted_total{resource=\"tenants-by-param\"}");
        System.out.printf(
            "bounded state: %,d distinct keys in %,d ms: %,d tenant keys %s, %,d URLs (%s),"
                + " %,d SQL strings (%s)%n"
                + "bounded state: heap after full GC %,d KB before, %,d KB after (%+,d KB; bound"
                + " %,d KB); keys evicted: %,.0f by header, %,.0f by parameter (max-keys %,d)%n",
            tenants.total() + httpCounts.number("calls") + jdbcCounts.number("calls"),
            millis,
            tenants.total(),
            tenants,
            httpCounts.number("calls"),
            httpCounts.raw().replace('\n', ' '),
            jdbcCounts.number("calls"),
            jdbcCounts.raw().replace('\n', ' '),
            before / 1024,
            after / 1024,
            (after - before) / 1024,
            BOUND / 1024,
            byHeader,
            byParam,
            MAX_KEYS);

        assertThat(after - before).isLessThan(BOUND);
        // each resource saw half the tenant keys plus the warm-up's; eviction goes by eighths
        long perResource = tenantKeys / 2 + 1;
        for (double evicted : new double[] {byHeader, byParam}) {
          assertThat((long) evicted)
              .isBetween(perResource - MAX_KEYS - 8, perResource - (MAX_KEYS - MAX_KEYS / 8));
        }
        assertThat(endpoint.row("tenants").keysEvicted()).isEqualTo((long) byHeader);
        stillProtects(workload);
      }
    }
  }

  /** Request {@code i}: even ones keyed by header on a path of their own, odd ones by parameter. */
  private static Request tenant(long i, String key) {
    return i % 2 == 0
        ? new Request("/tenant/" + i, "X-Tenant-ID", key)
        : Request.of("/svc/" + i + "?tenant=" + key);
  }

  private static void stillProtects(Workload workload) throws Exception {
    ServletLoad oneTenant = workload.servlet(20, i -> tenant(0, "after"));
    assertThat(oneTenant.count(200)).as(oneTenant.toString()).isBetween(1L, 4L);
    assertThat(oneTenant.count(429)).as(oneTenant.toString()).isGreaterThanOrEqualTo(16L);
    Reply blocked = workload.http(20, "blocked:1", true);
    assertThat(blocked.number("blocked.levee")).as(blocked.raw()).isGreaterThanOrEqualTo(18L);
    Reply audit = workload.jdbc(20, "blocked:1", true);
    assertThat(audit.number("blocked.levee")).as(audit.raw()).isGreaterThanOrEqualTo(18L);
    // the breaker of a partner that keeps failing is open (its back-off grew) or opens again
    Reply failing = workload.http(60, "fail:1", true);
    assertThat(failing.number("fail.levee")).as(failing.raw()).isPositive();
  }
}
