package io.levee.benchmarks;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Resilience4j doing what {@link LeveeHotPath} does, the way its documentation decorates a call:
 * circuit breaker outside, then rate limiter, then bulkhead. The decorated runnables are built
 * once, so only the per-call cost is measured. Resilience4j has no matching, so it has no "no
 * match" case: an undecorated call is {@link NoProtection}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class Resilience4jHotPath {
  private Runnable rateLimited;
  private Runnable combined;

  @Setup
  public void setUp() {
    rateLimited = RateLimiter.decorateRunnable(rateLimiter("rate-limit"), Work::run);
    CircuitBreaker breaker = CircuitBreaker.of("combined", breakerConfig());
    Bulkhead bulkhead = Bulkhead.of("combined", bulkheadConfig());
    combined =
        CircuitBreaker.decorateRunnable(
            breaker,
            RateLimiter.decorateRunnable(
                rateLimiter("combined"), Bulkhead.decorateRunnable(bulkhead, Work::run)));
  }

  @Benchmark
  public void rateLimit() {
    rateLimited.run();
  }

  @Benchmark
  public void combined() {
    combined.run();
  }

  /** The same numbers as the Levee rules: a window of 10 s, 20 calls at least, 50 % failures. */
  private static CircuitBreakerConfig breakerConfig() {
    return CircuitBreakerConfig.custom()
        .slidingWindowType(SlidingWindowType.TIME_BASED)
        .slidingWindowSize(10)
        .minimumNumberOfCalls(20)
        .failureRateThreshold(50)
        .waitDurationInOpenState(Duration.ofSeconds(5))
        .permittedNumberOfCallsInHalfOpenState(5)
        .build();
  }

  /** So high it always admits: a billion permits a second, never waiting. */
  private static RateLimiter rateLimiter(String name) {
    return RateLimiter.of(
        name,
        RateLimiterConfig.custom()
            .limitForPeriod(HotPathRules.RATE_PER_SECOND)
            .limitRefreshPeriod(Duration.ofSeconds(1))
            .timeoutDuration(Duration.ZERO)
            .build());
  }

  private static BulkheadConfig bulkheadConfig() {
    return BulkheadConfig.custom()
        .maxConcurrentCalls(HotPathRules.MAX_CONCURRENT)
        .maxWaitDuration(Duration.ZERO)
        .build();
  }
}
