package io.levee.rules.reliability;

import static io.levee.rules.testing.TestRules.load;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Permit;
import io.levee.rules.engine.Engine;
import io.levee.rules.engine.KeySource;
import io.levee.rules.engine.Outcome;
import io.levee.rules.engine.Reason;
import io.levee.rules.engine.ResourceView;
import io.levee.rules.time.Clock;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, no leaked permits, at the engine: a million calls of every kind, held a while and
 * completed out of order with random outcomes, across a reload that changes some resources and
 * keeps others. Every resource, old or new, ends with nothing in flight and as many completed calls
 * as it let through.
 */
class NoLeakedPermitsTest {
  private static final int THREADS = 4;
  private static final int CALLS_PER_THREAD = 250_000;
  private static final int HELD = 3;

  private static final String BEFORE =
      """
      version: 1
      settings: { max-keys: 1000 }
      system:
        exclude: ["/health"]
        adaptive: { min-limit: 2, max-limit: 16, initial-limit: 8 }
      resources:
        - name: tenants
          match: { servlet: { paths: ["/api/**"] } }
          rate-limit: { rate: 2000/s, burst: 20, per: header:X-Tenant-ID }
          concurrency: { max: 4 }
        - name: pages
          mode: monitor
          match: { servlet: { methods: [GET], paths: ["/pages/**"] } }
          concurrency: { max: 2 }
          circuit-breaker: { minimum-calls: 10, window: 1s, open-for: 1ms, half-open-calls: 2 }
        - name: partner
          match: { http: { urls: ["http://partner/**"] } }
          timeouts: { connect: 1s, read: 2s }
          circuit-breaker: { minimum-calls: 10, open-for: 5ms, half-open-calls: 2 }
          failure: { ignore-exceptions: [java.io.FileNotFoundException] }
        - name: partner-watch
          mode: monitor
          match: { http: { urls: ["http://watch/**"] } }
          rate-limit: { rate: 100/s, burst: 5 }
        - name: orders
          match: { jdbc: { urls: ["jdbc:h2:mem:shop"], operations: [SELECT, INSERT] } }
          adaptive: { min-limit: 1, max-limit: 4, initial-limit: 2 }
          failure: { ignore-sql-states: ["23*"] }
        - name: connect
          match: { jdbc: { urls: ["jdbc:h2:mem:shop"], operations: [CONNECT] } }
          concurrency: { max: 2 }
      """;

  /**
   * tenants, partner, connect and system unchanged; pages and orders changed; watch gone; reports
   * new.
   */
  private static final String AFTER =
      BEFORE
          .replace("concurrency: { max: 2 }\n    circuit", "concurrency: { max: 3 }\n    circuit")
          .replace(
              "adaptive: { min-limit: 1, max-limit: 4, initial-limit: 2 }",
              "concurrency: { max: 3 }\n    circuit-breaker: { minimum-calls: 5, open-for: 2ms }")
          .replace(
              "  - name: partner-watch\n"
                  + "    mode: monitor\n"
                  + "    match: { http: { urls: [\"http://watch/**\"] } }\n"
                  + "    rate-limit: { rate: 100/s, burst: 5 }\n",
              "  - name: reports\n"
                  + "    match: { servlet: { paths: [\"/reports/**\"] } }\n"
                  + "    rate-limit: { rate: 500/s, burst: 3 }\n");

  private final AtomicLong now = new AtomicLong(1_000_000_000L);

  /** Every read moves time on, so windows roll, breakers open and close, and buckets refill. */
  private final Clock clock = () -> now.addAndGet(20_000);

  private final Engine engine = new Engine(clock, () -> 0.5, nanos -> {});
  private final LongAdder permits = new LongAdder();
  private final LongAdder blocked = new LongAdder();
  private final LongAdder untracked = new LongAdder();
  private final AtomicLong progress = new AtomicLong();

  @Test
  void everyResourceEndsWithNothingInFlightAndEveryPassedCallCompleted() throws Exception {
    assertThat(AFTER).isNotEqualTo(BEFORE).doesNotContain("partner-watch").contains("max: 3");
    engine.apply(load(BEFORE));
    List<ResourceView> before = engine.resources();

    List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      long seed = 31L * t + 7;
      Thread thread =
          new Thread(
              () -> {
                try {
                  traffic(new Random(seed));
                } catch (Throwable e) {
                  errors.add(e);
                }
              });
      threads.add(thread);
      thread.start();
    }
    while (progress.get() < THREADS * (long) CALLS_PER_THREAD / 2 && threads.get(0).isAlive()) {
      Thread.sleep(1);
    }
    engine.apply(load(AFTER));
    List<ResourceView> after = engine.resources();
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(errors).isEmpty();

    assertThat(names(before))
        .containsExactly(
            "tenants", "pages", "partner", "partner-watch", "orders", "connect", "system");
    assertThat(names(after))
        .containsExactly("tenants", "pages", "partner", "reports", "orders", "connect", "system");
    assertThat(after.get(0)).as("unchanged tenants keeps its state").isSameAs(before.get(0));
    assertThat(after.get(1)).as("changed pages starts afresh").isNotSameAs(before.get(1));

    Set<ResourceView> all = Collections.newSetFromMap(new IdentityHashMap<>());
    all.addAll(before);
    all.addAll(after);
    long countedBlocks = 0;
    long wouldBlock = 0;
    for (ResourceView v : all) {
      long completed = 0;
      for (Outcome o : Outcome.values()) {
        completed += v.calls(o);
      }
      assertThat(v.inFlight()).as(v.name() + " in flight").isZero();
      assertThat(completed).as(v.name() + " completed = passed").isEqualTo(v.passed());
      assertThat(v.passed()).as(v.name() + " passed").isPositive();
      for (Reason r : Reason.values()) {
        wouldBlock += v.wouldBlock(r);
        // a system shed is counted on the system and again on the resource the call matched
        boolean again = r == Reason.SYSTEM && !v.name().equals("system");
        countedBlocks += again ? 0 : v.blocked(r);
      }
    }
    System.out.printf(
        "no leaked permits: %d calls, %d admitted, %d blocked, %d untracked, %d would block%n",
        THREADS * (long) CALLS_PER_THREAD,
        permits.sum(),
        blocked.sum(),
        untracked.sum(),
        wouldBlock);
    assertThat(permits.sum() + blocked.sum() + untracked.sum())
        .isEqualTo(THREADS * (long) CALLS_PER_THREAD);
    assertThat(countedBlocks).as("blocks counted = blocked answers").isEqualTo(blocked.sum());
    assertThat(blocked.sum()).isPositive();
    assertThat(wouldBlock).as("monitor resources would have blocked").isPositive();
  }

  private void traffic(Random random) {
    KeySource keys = (request, spec) -> (String) request;
    Object[] held = new Object[HELD];
    for (int i = 0; i < CALLS_PER_THREAD; i++) {
      Object decision = decide(random, keys);
      progress.incrementAndGet();
      if (decision == null) {
        untracked.increment();
        continue;
      }
      if (decision instanceof Blocked) {
        blocked.increment();
        continue;
      }
      assertThat(decision).isInstanceOf(Permit.class);
      permits.increment();
      int slot = random.nextInt(HELD);
      if (held[slot] != null) {
        finish(held[slot], random);
      }
      held[slot] = decision;
    }
    for (Object permit : held) {
      if (permit != null) {
        finish(permit, random);
      }
    }
  }

  private Object decide(Random random, KeySource keys) {
    switch (random.nextInt(9)) {
      case 0:
        return engine.servlet(
            "GET", "/api/orders/" + random.nextInt(50), "t" + random.nextInt(20), keys);
      case 1:
        return engine.servlet("POST", "/api/cart", null, keys);
      case 2:
        return engine.servlet(
            random.nextBoolean() ? "GET" : "PUT", "/pages/" + random.nextInt(9), null, keys);
      case 3:
        return engine.servlet(
            "GET", random.nextBoolean() ? "/health" : "/reports/" + random.nextInt(3), null, keys);
      case 4:
        return engine.http("GET", "http://partner/v1/" + random.nextInt(100));
      case 5:
        return engine.http("POST", "http://watch/x");
      case 6:
        return engine.jdbc(
            "jdbc:h2:mem:shop",
            random.nextBoolean() ? "SELECT * FROM t" : "INSERT INTO t VALUES (1)");
      case 7:
        return engine.jdbc("jdbc:h2:mem:shop", random.nextInt(4) == 0 ? null : "DELETE FROM t");
      default:
        return engine.jdbcConnect("jdbc:h2:mem:shop");
    }
  }

  private void finish(Object permit, Random random) {
    long start = clock.nanoTime() - random.nextInt(5_000_000);
    switch (random.nextInt(20)) {
      case 0:
        engine.complete(permit, start, 500, null);
        break;
      case 1:
        engine.complete(permit, start, -1, new IOException("reset"));
        break;
      case 2:
        engine.complete(permit, start, -1, new FileNotFoundException("404"));
        break;
      case 3:
        engine.complete(permit, start, -1, new SQLException("dup", "23505"));
        break;
      case 4:
        engine.complete(permit, start, -1, new SQLException("gone", "08006"));
        break;
      case 5:
        engine.complete(permit, start, 503, new IllegalStateException("boom"));
        break;
      default:
        engine.complete(permit, start, random.nextBoolean() ? 200 : -1, null);
    }
  }

  private static List<String> names(List<ResourceView> views) {
    List<String> names = new ArrayList<>();
    for (ResourceView v : views) {
      names.add(v.name());
    }
    return names;
  }
}
