package io.levee.rules.reliability;

import static io.levee.rules.testing.TestRules.load;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Permit;
import io.levee.rules.engine.Engine;
import io.levee.rules.engine.KeySource;
import io.levee.rules.engine.ResourceView;
import io.levee.rules.time.ManualClock;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, bounded state, at the engine: a million distinct URLs, SQL strings, paths and tenant
 * keys leave the engine's heap under 50 MB, the per-key buckets evicted are counted, and the limits
 * still hold afterwards. Each call has its own string, as legacy code with literal SQL and ids in
 * URLs produces them.
 */
class BoundedStateTest {
  private static final int DISTINCT = 1_000_000;
  private static final int MAX_KEYS = 10_000;
  private static final long BOUND = 50L * 1024 * 1024;

  private static final String RULES =
      """
      version: 1
      settings: { max-keys: 10000 }
      resources:
        - name: tenants
          match: { servlet: { paths: ["/api/**"] } }
          rate-limit: { rate: 1/s, burst: 1, per: header:X-Tenant-ID }
        - name: partner
          match: { http: { urls: ["http://*.example.com/**"] } }
          concurrency: { max: 1 }
        - name: orders-db
          match: { jdbc: { urls: ["jdbc:h2:mem:*"], tables: [orders] } }
          concurrency: { max: 1 }
      """;

  @Test
  void aMillionDistinctCallsLeaveTheEngineSmallAndStillProtecting() {
    ManualClock clock = new ManualClock();
    Engine engine = new Engine(clock, () -> 0.1, nanos -> {});
    engine.apply(load(RULES));
    KeySource keys = (request, spec) -> (String) request;
    // warm the classes and caches up, so the baseline holds them
    calls(engine, keys, clock, -1000, 0);
    long before = usedHeapAfterGc();

    long start = System.nanoTime();
    calls(engine, keys, clock, 0, DISTINCT);
    long seconds = (System.nanoTime() - start) / 1_000_000_000L;
    long after = usedHeapAfterGc();
    long retained = after - before;
    ResourceView tenants = engine.resources().get(0);
    System.out.printf(
        "bounded state: %d distinct urls, sql, paths and keys in ~%d s; engine heap +%.1f MB;"
            + " %d keys evicted%n",
        DISTINCT, seconds, retained / 1048576.0, tenants.keysEvicted());

    assertThat(retained).as("bytes the engine kept").isLessThan(BOUND);
    assertThat(tenants.keysEvicted()).isGreaterThanOrEqualTo(DISTINCT + 1000 - MAX_KEYS);

    // the same tenant twice at one instant: the second call is over its rate
    assertThat(engine.servlet("GET", "/api/last", "tenant-last", keys)).isInstanceOf(Permit.class);
    assertThat(engine.servlet("GET", "/api/last", "tenant-last", keys)).isInstanceOf(Blocked.class);
    // an outstanding call still fills the concurrency limits of outbound resources
    Object url = engine.http("GET", "http://a.example.com/x/" + DISTINCT);
    assertThat(url).isInstanceOf(Permit.class);
    assertThat(engine.http("GET", "http://b.example.com/y")).isInstanceOf(Blocked.class);
    Object sql = engine.jdbc("jdbc:h2:mem:z", "SELECT * FROM orders WHERE id = -1");
    assertThat(sql).isInstanceOf(Permit.class);
    assertThat(engine.jdbc("jdbc:h2:mem:z", "DELETE FROM orders WHERE id = -2"))
        .isInstanceOf(Blocked.class);
    assertThat(engine.jdbc("jdbc:h2:mem:z", "DELETE FROM customers WHERE id = -2")).isNull();
    Reference.reachabilityFence(engine);
  }

  /** Distinct tenant, path, URL and SQL for every i in [from, to); every permit completed. */
  private static void calls(Engine engine, KeySource keys, ManualClock clock, int from, int to) {
    for (int i = from; i < to; i++) {
      Object servlet = engine.servlet("GET", "/api/items/" + i, "tenant-" + i, keys);
      assertThat(servlet).isInstanceOf(Permit.class);
      engine.complete(servlet, clock.nanoTime(), 200, null);
      Object http = engine.http("GET", "http://h" + (i & 1023) + ".example.com/v1/items/" + i);
      assertThat(http).isInstanceOf(Permit.class);
      engine.complete(http, clock.nanoTime(), 200, null);
      Object jdbc =
          engine.jdbc("jdbc:h2:mem:db" + (i & 15), "SELECT * FROM orders WHERE id = " + i);
      assertThat(jdbc).isInstanceOf(Permit.class);
      engine.complete(jdbc, clock.nanoTime(), -1, null);
    }
  }

  private static long usedHeapAfterGc() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
