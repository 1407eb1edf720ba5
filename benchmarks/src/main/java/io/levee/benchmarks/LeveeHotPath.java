package io.levee.benchmarks;

import io.levee.bootstrap.Permit;
import io.levee.rules.engine.Engine;
import io.levee.rules.engine.Sleeper;
import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RulesLoader;
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
 * The engine's hot path as the advice drives it: decide ({@code http}), ask for the call's start
 * ({@code start}, what {@code Levee.start} forwards to), run the call, record its outcome ({@code
 * complete}). One engine is shared by all threads, like the agent's. It reads the system clock and
 * a fixed CPU load ({@code CpuSource.UNKNOWN}), so no sampler thread runs, and keeps no durations,
 * as the agent without its {@code http} option (metrics off; {@link MetricsHotPath} has them on).
 * Each call checks that it took the intended path, so a rule that stops admitting fails the run
 * instead of measuring rejections.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class LeveeHotPath {
  private Engine engine;

  @Setup
  public void setUp() {
    engine = newEngine();
  }

  @Benchmark
  public void noMatch() {
    noMatch(engine);
  }

  @Benchmark
  public void rateLimit() {
    admitted(engine, engine.http("GET", HotPathRules.RATE_LIMIT_URL));
  }

  @Benchmark
  public void combined() {
    admitted(engine, engine.http("GET", HotPathRules.COMBINED_URL));
  }

  /**
   * An engine on the system clock with the benchmark rules in force, as the agent without metrics.
   */
  static Engine newEngine() {
    return newEngine(false);
  }

  /** {@code durations}: as the agent with metrics on (its {@code http} option). */
  static Engine newEngine(boolean durations) {
    LoadResult loaded = RulesLoader.parse("hotpath.yaml", HotPathRules.LEVEE_RULES);
    if (!loaded.ok()) {
      throw new IllegalStateException("benchmark rules rejected: " + loaded.errors());
    }
    Engine engine = new Engine(Clock.SYSTEM, CpuSource.UNKNOWN, Sleeper.SYSTEM, durations);
    engine.apply(loaded.rules());
    return engine;
  }

  /**
   * Case (a): a call no resource matches, which the engine does not track ({@code Levee.start} of a
   * null token is 0 without asking the engine).
   */
  static void noMatch(Engine engine) {
    Object token = engine.http("GET", HotPathRules.NO_MATCH_URL);
    if (token != null) {
      throw new IllegalStateException("expected no resource to match, got " + token);
    }
    Work.run();
    engine.complete(token, 0L, 200, null);
  }

  /**
   * What the advice does for an admitted call: ask for its start after the decision, then report.
   */
  static void admitted(Engine engine, Object token) {
    if (!(token instanceof Permit)) {
      throw new IllegalStateException("expected the call to be admitted, got " + token);
    }
    long start = engine.start(token);
    Work.run();
    engine.complete(token, start, 200, null);
  }
}
