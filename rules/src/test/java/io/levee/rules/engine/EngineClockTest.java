package io.levee.rules.engine;

import static io.levee.rules.engine.Fixture.permit;
import static io.levee.rules.testing.TestRules.file;
import static io.levee.rules.testing.TestRules.load;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.policy.adaptive.ManualCpu;
import io.levee.rules.time.Clock;
import io.levee.rules.time.ManualClock;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A clock read can cost more than the rest of a decision: an admitted call reads it at most twice
 * (decision, which is also the start, and end), and only as much as a policy or the durations need.
 */
class EngineClockTest {
  private static final String ALL_POLICIES =
      "system:\n  adaptive: { max-limit: 100, initial-limit: 100 }\n"
          + "resources:\n"
          + "  - name: shop\n    match: { servlet: { paths: [\"/shop/**\"] } }\n"
          + "    circuit-breaker: { minimum-calls: 100 }\n"
          + "    rate-limit: { rate: 1000/s }\n    concurrency: { max: 10 }\n"
          + "    adaptive: { min-limit: 10, max-limit: 10, initial-limit: 10 }\n"
          + "  - name: pay\n    match: { http: { urls: [\"http://pay/**\"] } }\n"
          + "    circuit-breaker: { minimum-calls: 100 }\n"
          + "    rate-limit: { rate: 1000/s }\n";

  private static final String RATE_AND_CONCURRENCY =
      "resources:\n"
          + "  - name: db\n    match: { jdbc: { urls: [\"jdbc:h2:**\"] } }\n"
          + "    concurrency: { max: 10 }\n"
          + "  - name: feed\n    match: { http: { urls: [\"http://feed/**\"] } }\n"
          + "    rate-limit: { rate: 1000/s }\n";

  private final ManualClock time = new ManualClock();
  private final AtomicInteger reads = new AtomicInteger();
  private final Clock counted =
      new Clock() {
        @Override
        public long nanoTime() {
          reads.incrementAndGet();
          return time.nanoTime();
        }
      };

  private Engine engine(boolean durations, String yaml) {
    Engine engine = new Engine(counted, new ManualCpu(0.1), time::advanceNanos, durations);
    engine.apply(load(file(yaml)));
    reads.set(0);
    return engine;
  }

  @Test
  void aTimedCallStartsAtItsDecisionsReadAndReadsTheClockOnceMoreToComplete() {
    Engine engine = engine(false, ALL_POLICIES);

    long decidedAt = time.nanoTime();
    Object shop = permit(engine.servlet("GET", "/shop/cart", null, null));
    time.advanceNanos(1_000);
    assertThat(engine.start(shop)).isEqualTo(decidedAt);
    assertThat(reads).hasValue(1);
    time.advanceNanos(5_000);
    engine.complete(shop, decidedAt, 200, null);
    assertThat(reads).hasValue(2);

    reads.set(0);
    Object pay = permit(engine.http("GET", "http://pay/v1"));
    long start = engine.start(pay);
    engine.complete(pay, start, 500, null);
    assertThat(reads).hasValue(2);
  }

  @Test
  void withoutDurationsACallNoPolicyTimesReadsTheClockOnlyIfItsDecisionNeedsIt() {
    Engine engine = engine(false, RATE_AND_CONCURRENCY);

    assertThat(engine.http("GET", "http://other/")).isNull();
    Object db = permit(engine.jdbc("jdbc:h2:mem:x", "select 1"));
    assertThat(engine.start(db)).isZero();
    engine.complete(db, 0L, -1, null);
    assertThat(reads).hasValue(0);

    Object feed = permit(engine.http("GET", "http://feed/items"));
    assertThat(engine.start(feed)).isZero();
    engine.complete(feed, 0L, 200, null);
    assertThat(reads).hasValue(1);
  }

  @Test
  void withDurationsEveryCallIsTimedFromItsDecisionWithTwoReads() {
    Engine engine = engine(true, RATE_AND_CONCURRENCY);

    long decidedAt = time.nanoTime();
    Object db = permit(engine.jdbc("jdbc:h2:mem:x", "select 1"));
    long start = engine.start(db);
    time.advanceNanos(7_000);
    engine.complete(db, start, -1, null);
    assertThat(start).isEqualTo(decidedAt);
    assertThat(reads).hasValue(2);

    reads.set(0);
    Object feed = permit(engine.http("GET", "http://feed/items"));
    time.advanceNanos(3_000);
    engine.complete(feed, engine.start(feed), 200, null);
    assertThat(reads).hasValue(2);
    assertThat(engine.resources().get(0).durationSumNanos()).isEqualTo(7_000);
    assertThat(engine.resources().get(1).durationSumNanos()).isEqualTo(3_000);
  }

  @Test
  void withoutDurationsATimedCallAddsNothingToTheDurationSum() {
    Engine engine = engine(false, ALL_POLICIES);

    Object pay = permit(engine.http("GET", "http://pay/v1"));
    long start = engine.start(pay);
    time.advanceNanos(5_000);
    engine.complete(pay, start, 200, null);

    assertThat(reads).hasValue(2);
    assertThat(engine.resources().get(1).calls(Outcome.SUCCESS)).isEqualTo(1);
    assertThat(engine.resources().get(1).durationSumNanos()).isZero();
  }

  @Test
  void aCallPacedByTheRateLimitStartsAfterItsWait() {
    Engine engine =
        engine(
            true,
            "resources:\n  - name: feed\n    match: { http: { urls: [\"http://feed/**\"] } }\n"
                + "    rate-limit: { rate: 10/s, burst: 1, max-wait: 500ms }\n");

    Object first = permit(engine.http("GET", "http://feed/1"));
    engine.complete(first, engine.start(first), 200, null);
    long decidedAt = time.nanoTime();
    Object paced = permit(engine.http("GET", "http://feed/2"));

    assertThat(time.nanoTime()).isEqualTo(decidedAt + 100_000_000L);
    assertThat(engine.start(paced)).isEqualTo(time.nanoTime());
  }

  @Test
  void aStartAskedForWithoutADecisionReadsTheClock() {
    Engine engine = engine(false, ALL_POLICIES);
    Object pay = permit(engine.http("GET", "http://pay/v1"));
    engine.start(pay);
    time.advanceNanos(2_000);

    assertThat(engine.start(pay)).isEqualTo(time.nanoTime());
  }
}
