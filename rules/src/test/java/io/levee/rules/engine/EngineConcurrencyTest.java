package io.levee.rules.engine;

import static io.levee.rules.testing.TestRules.file;
import static io.levee.rules.testing.TestRules.load;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Permit;
import io.levee.rules.policy.adaptive.ManualCpu;
import io.levee.rules.time.Clock;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Many threads, random calls and outcomes, reloads in between: every permit comes back. */
class EngineConcurrencyTest {
  private static final String RULES =
      "system:\n  exclude: [\"/health\"]\n  adaptive: { min-limit: 2, max-limit: 8, initial-limit: 4 }\n"
          + "resources:\n"
          + "  - name: shop\n    match: { servlet: { paths: [\"/shop/**\"] } }\n"
          + "    rate-limit: { rate: 5000/s, per: header:X-Tenant }\n    concurrency: { max: 3 }\n"
          + "  - name: pay\n    match: { http: { urls: [\"http://pay/**\"] } }\n"
          + "    circuit-breaker: { minimum-calls: 5, open-for: 1ms, half-open-calls: 2 }\n"
          + "    adaptive: { min-limit: 1, max-limit: 4, initial-limit: 2 }\n"
          + "    failure: { ignore-exceptions: [java.io.FileNotFoundException] }\n"
          + "  - name: db\n    match: { jdbc: { urls: [\"jdbc:h2:**\"] } }\n"
          + "    concurrency: { max: 2, max-wait: 1ms }\n    adaptive: { max-limit: 2, initial-limit: 2 }\n"
          + "    failure: { ignore-sql-states: [\"23*\"] }\n";

  @Test
  void leavesNothingInFlightAnywhereAfterRandomTraffic() throws Exception {
    AtomicLong now = new AtomicLong();
    Clock clock = () -> now.addAndGet(1_000);
    Engine engine = new Engine(clock, new ManualCpu(0.5), nanos -> {});
    engine.apply(load(file(RULES)));
    KeySource keys = (request, spec) -> (String) request;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                  run(engine, keys, clock);
                } catch (Throwable e) {
                  synchronized (errors) {
                    errors.add(e);
                  }
                }
              });
      threads.add(thread);
      thread.start();
    }
    start.countDown();
    for (int i = 0; i < 20; i++) {
      engine.apply(load(file(i % 2 == 0 ? RULES : RULES.replace("max: 3", "max: 4"))));
      for (ResourceView view : engine.resources()) {
        long before = view.passed();
        assertThat(view.passed())
            .as(view.name() + " passed never goes down")
            .isGreaterThanOrEqualTo(before);
      }
      Thread.sleep(5);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(errors).isEmpty();
    for (ResourceView view : engine.resources()) {
      assertThat(view.inFlight()).as(view.name()).isZero();
      assertThat(view.passed()).as(view.name()).isPositive().isEqualTo(completed(view));
    }
  }

  private static long completed(ResourceView view) {
    long completed = 0;
    for (Outcome outcome : Outcome.ALL) {
      completed += view.calls(outcome);
    }
    return completed;
  }

  private static void run(Engine engine, KeySource keys, Clock clock) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int i = 0; i < 20_000; i++) {
      Object decision;
      switch (random.nextInt(4)) {
        case 0:
          decision =
              engine.servlet("GET", "/shop/" + random.nextInt(3), "t" + random.nextInt(5), keys);
          break;
        case 1:
          decision = engine.servlet("GET", random.nextBoolean() ? "/health" : "/x", null, keys);
          break;
        case 2:
          decision = engine.http("POST", "http://pay/v1");
          break;
        default:
          decision = engine.jdbc("jdbc:h2:mem:x", "select * from t");
      }
      if (decision == null || decision instanceof Blocked) {
        continue;
      }
      assertThat(decision).isInstanceOf(Permit.class);
      long start = clock.nanoTime();
      Thread.yield();
      engine.complete(decision, start, random.nextInt(10) == 0 ? 503 : 200, error(random));
    }
  }

  private static Throwable error(ThreadLocalRandom random) {
    switch (random.nextInt(8)) {
      case 0:
        return new IOException("down");
      case 1:
        return new java.io.FileNotFoundException("ignored");
      case 2:
        return new SQLException("dup", "23505");
      default:
        return null;
    }
  }
}
