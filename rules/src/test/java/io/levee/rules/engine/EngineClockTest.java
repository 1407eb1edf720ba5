package io.levee.rules.engine;

import static io.levee.rules.engine.Fixture.permit;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.policy.adaptive.ManualCpu;
import io.levee.rules.time.Clock;
import io.levee.rules.time.ManualClock;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A clock read can cost more than the rest of a decision: the engine reads it once per step. */
class EngineClockTest {
  private final ManualClock time = new ManualClock();
  private final AtomicInteger reads = new AtomicInteger();
  private final Engine engine =
      new Engine(
          new Clock() {
            @Override
            public long nanoTime() {
              reads.incrementAndGet();
              return time.nanoTime();
            }
          },
          new ManualCpu(0.1),
          nanos -> {});

  @Test
  void readsTheClockOncePerDecisionAndOncePerCompletionWhateverThePolicies() {
    engine.apply(
        Fixture.rules(
            "system:\n  adaptive: { max-limit: 100, initial-limit: 100 }\n"
                + "resources:\n"
                + "  - name: shop\n    match: { servlet: { paths: [\"/shop/**\"] } }\n"
                + "    circuit-breaker: { minimum-calls: 100 }\n"
                + "    rate-limit: { rate: 1000/s }\n    concurrency: { max: 10 }\n"
                + "    adaptive: { min-limit: 10, max-limit: 10, initial-limit: 10 }\n"
                + "  - name: pay\n    match: { http: { urls: [\"http://pay/**\"] } }\n"
                + "    circuit-breaker: { minimum-calls: 100 }\n"
                + "    rate-limit: { rate: 1000/s }\n"));

    reads.set(0);
    Object shop = permit(engine.servlet("GET", "/shop/cart", null, null));
    assertThat(reads).hasValue(1);
    engine.complete(shop, 0L, 200, null);
    assertThat(reads).hasValue(2);

    reads.set(0);
    Object pay = permit(engine.http("GET", "http://pay/v1"));
    assertThat(reads).hasValue(1);
    engine.complete(pay, 0L, 500, null);
    assertThat(reads).hasValue(2);
  }

  @Test
  void decidesWithoutTheClockWhenNoPolicyNeedsTheTime() {
    engine.apply(
        Fixture.rules(
            "resources:\n  - name: db\n    match: { jdbc: { urls: [\"jdbc:h2:**\"] } }\n"
                + "    concurrency: { max: 10 }\n"));

    reads.set(0);
    assertThat(engine.http("GET", "http://other/")).isNull();
    Object db = permit(engine.jdbc("jdbc:h2:mem:x", "select 1"));
    assertThat(reads).hasValue(0);
    engine.complete(db, 0L, -1, null);
    assertThat(reads).hasValue(1);
  }
}
