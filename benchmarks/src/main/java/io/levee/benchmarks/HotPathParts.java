package io.levee.benchmarks;

import io.levee.bootstrap.Permit;
import io.levee.rules.engine.Engine;
import io.levee.rules.engine.Sleeper;
import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RulesLoader;
import io.levee.rules.match.ResourceMatcher;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import io.levee.rules.policy.CircuitBreaker;
import io.levee.rules.policy.ConcurrencyLimit;
import io.levee.rules.policy.TokenBucket;
import io.levee.rules.policy.adaptive.CpuSource;
import io.levee.rules.time.Clock;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Each piece of {@link LeveeHotPath} alone, built from the same rules, so a slow or allocating hot
 * path can be traced to its part. The policies are given {@code now} as the engine gives it, from a
 * counter here, so their rows leave the clock read out (it has a row of its own). Its table follows
 * the main one in {@code docs/BENCHMARKS.md}; alone: {@code java -jar
 * benchmarks/target/benchmarks.jar HotPathParts -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class HotPathParts {
  private ResourceMatcher matcher;
  private TokenBucket bucket;
  private CircuitBreaker breaker;
  private ConcurrencyLimit concurrency;
  private Engine engineOnCheapClock;
  private Engine systemOnCheapClock;
  private final CheapClock ticks = new CheapClock();

  @Setup
  public void setUp() {
    LoadResult loaded = RulesLoader.parse("hotpath.yaml", HotPathRules.LEVEE_RULES);
    if (!loaded.ok()) {
      throw new IllegalStateException("benchmark rules rejected: " + loaded.errors());
    }
    RuleSet rules = loaded.rules();
    ResourceRule combined = rules.resources.get(1);
    matcher = new ResourceMatcher(rules);
    // On the same clock as the instants the benchmarks pass: a bucket on the system clock found
    // those instants far in its past, refused, and measured its re-judging clock read instead.
    bucket = new TokenBucket(combined.rateLimit, ticks);
    breaker = new CircuitBreaker(combined.circuitBreaker, ticks, () -> 4L);
    concurrency = new ConcurrencyLimit(combined.concurrency);
    engineOnCheapClock = new Engine(new CheapClock(), CpuSource.UNKNOWN, Sleeper.SYSTEM, false);
    engineOnCheapClock.apply(rules);
    LoadResult system = RulesLoader.parse("system.yaml", "version: 1\nsystem:\n  adaptive: {}\n");
    if (!system.ok()) {
      throw new IllegalStateException("benchmark rules rejected: " + system.errors());
    }
    systemOnCheapClock = new Engine(new CheapClock(), CpuSource.UNKNOWN, Sleeper.SYSTEM, false);
    systemOnCheapClock.apply(system.rules());
  }

  @Benchmark
  public int matchMiss() {
    return matcher.http("GET", HotPathRules.NO_MATCH_URL);
  }

  @Benchmark
  public int matchHit() {
    return matcher.http("GET", HotPathRules.COMBINED_URL);
  }

  @Benchmark
  public long tokenBucket() {
    return bucket.tryAcquire(ticks.nanoTime());
  }

  @Benchmark
  public long breakerAcquireAndRecord() {
    long wait = breaker.tryAcquire(ticks.nanoTime());
    breaker.onComplete(ticks.nanoTime(), 1_000L, false);
    return wait;
  }

  @Benchmark
  public boolean concurrencyAcquireAndRelease() {
    boolean admitted = concurrency.tryAcquire();
    concurrency.release();
    return admitted;
  }

  /** Case (c) of {@link LeveeHotPath} with clock reads that cost next to nothing. */
  @Benchmark
  public void engineCombinedOnCheapClock() {
    Object token = engineOnCheapClock.http("GET", HotPathRules.COMBINED_URL);
    if (!(token instanceof Permit)) {
      throw new IllegalStateException("expected the call to be admitted, got " + token);
    }
    long start = engineOnCheapClock.start(token);
    Work.run();
    engineOnCheapClock.complete(token, start, 200, null);
  }

  /** An inbound request that only the default {@code system} limit decides, on a cheap clock. */
  @Benchmark
  public void systemLimitOnCheapClock() {
    Object token = systemOnCheapClock.servlet("GET", "/orders", null, null);
    if (!(token instanceof Permit)) {
      throw new IllegalStateException("expected the request to be admitted, got " + token);
    }
    long start = systemOnCheapClock.start(token);
    Work.run();
    systemOnCheapClock.complete(token, start, 200, null);
  }

  @Benchmark
  public long clockRead() {
    return Clock.SYSTEM.nanoTime();
  }

  /** Time that moves 1 µs per read: plain field, racy on purpose (the policies tolerate skew). */
  private static final class CheapClock implements Clock {
    private long now;

    @Override
    public long nanoTime() {
      return now += 1_000L;
    }
  }
}
