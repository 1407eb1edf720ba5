package io.levee.rules.policy;

import static io.levee.rules.policy.CircuitBreaker.CLOSED;
import static io.levee.rules.testing.TestRules.breakerSpec;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.testing.TestRules;
import io.levee.rules.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/** The clock, the breaker (of {@link TestRules#breakerSpec}) and the helpers its tests share. */
abstract class BreakerTestSupport {
  static final long SECOND = 1_000_000_000L;
  static final long OPEN_FOR = TestRules.BREAKER_OPEN_FOR;
  static final LongSupplier LOWEST = () -> 0L;
  static final LongSupplier HIGHEST = () -> -1L;

  final ManualClock clock = new ManualClock();
  final List<String> transitions = new ArrayList<>();

  CircuitBreaker breaker(LongSupplier random) {
    CircuitBreaker b = new CircuitBreaker(breakerSpec(0, 1.0), clock, random);
    b.setListener((from, to, why) -> transitions.add(from + "->" + to + " " + why));
    return b;
  }

  void complete(CircuitBreaker b, int successes, int failures) {
    for (int i = 0; i < successes; i++) {
      b.onComplete(0, false);
    }
    for (int i = 0; i < failures; i++) {
      b.onComplete(0, true);
    }
  }

  CircuitBreaker halfOpen(LongSupplier random) {
    CircuitBreaker b = breaker(random);
    complete(b, 0, 4);
    clock.advanceNanos(OPEN_FOR);
    return b;
  }

  void closeThroughProbes(CircuitBreaker b) {
    clock.advanceNanos(b.openUntilNanos() - clock.nanoTime());
    for (int i = 0; i < 3; i++) {
      assertThat(b.tryAcquire()).isZero();
    }
    complete(b, 3, 0);
    assertThat(b.state()).isEqualTo(CLOSED);
  }
}
