package io.levee.rules.model;

/** {@code circuit-breaker:} with defaults applied. Durations in nanoseconds, rates in 0..1. */
public final class CircuitBreakerSpec {
  public final double failureRate;

  /** Calls slower than this count as slow; 0 when {@code slow-call} is not set. */
  public final long slowCallNanos;

  public final double slowCallRate;
  public final long windowNanos;
  public final int minimumCalls;
  public final long openForNanos;
  public final long openForMaxNanos;
  public final int halfOpenCalls;

  public CircuitBreakerSpec(
      double failureRate,
      long slowCallNanos,
      double slowCallRate,
      long windowNanos,
      int minimumCalls,
      long openForNanos,
      long openForMaxNanos,
      int halfOpenCalls) {
    this.failureRate = failureRate;
    this.slowCallNanos = slowCallNanos;
    this.slowCallRate = slowCallRate;
    this.windowNanos = windowNanos;
    this.minimumCalls = minimumCalls;
    this.openForNanos = openForNanos;
    this.openForMaxNanos = openForMaxNanos;
    this.halfOpenCalls = halfOpenCalls;
  }

  /** A breaker with every default of SPEC §2. */
  public static CircuitBreakerSpec defaults() {
    return new CircuitBreakerSpec(
        Defaults.BREAKER_FAILURE_RATE,
        0,
        Defaults.BREAKER_SLOW_CALL_RATE,
        Defaults.BREAKER_WINDOW_NANOS,
        Defaults.BREAKER_MINIMUM_CALLS,
        Defaults.BREAKER_OPEN_FOR_NANOS,
        Defaults.BREAKER_OPEN_FOR_MAX_NANOS,
        Defaults.BREAKER_HALF_OPEN_CALLS);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof CircuitBreakerSpec)) {
      return false;
    }
    CircuitBreakerSpec s = (CircuitBreakerSpec) o;
    return failureRate == s.failureRate
        && slowCallNanos == s.slowCallNanos
        && slowCallRate == s.slowCallRate
        && windowNanos == s.windowNanos
        && minimumCalls == s.minimumCalls
        && openForNanos == s.openForNanos
        && openForMaxNanos == s.openForMaxNanos
        && halfOpenCalls == s.halfOpenCalls;
  }

  @Override
  public int hashCode() {
    return Values.hash(failureRate, slowCallNanos, windowNanos, minimumCalls, openForNanos);
  }
}
