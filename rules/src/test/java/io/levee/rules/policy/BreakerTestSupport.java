package io.levee.rules.policy;

import static io.levee.rules.policy.CircuitBreaker.CLOSED;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.CircuitBreakerSpec;
import io.levee.rules.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/** The clock, the breaker and the helpers the circuit breaker's tests share. */
abstract class BreakerTestSupport {
  static final long SECOND = 1_000_000_000L;
  static final long OPEN_FOR = 5 * SECOND;
  static final LongSupplier LOWEST = () -> 0L;
  static final LongSupplier HIGHEST = () -> -1L;

  final ManualClock clock = new ManualClock();
  final List<String> transitions = new ArrayList<>();

  static CircuitBreakerSpec spec(long slowCallNanos, double slowCallRate) {
    return new CircuitBreakerSpec(
        0.5, slowCallNanos, slowCallRate, 10 * SECOND, 4, OPEN_FOR, 60 * SECOND, 3);
  }

  CircuitBreaker breaker(LongSupplier random) {
    CircuitBreaker b = new CircuitBreaker(spec(0, 1.0), clock, random);
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
