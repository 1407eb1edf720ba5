package io.levee.benchmarks;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.jedis.Bucket4jJedis;
import io.levee.agent.cluster.ClusterSync;
import io.levee.agent.log.EventLog;
import io.levee.rules.engine.Engine;
import io.levee.rules.engine.Sleeper;
import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RulesLoader;
import io.levee.rules.policy.adaptive.CpuSource;
import io.levee.rules.time.Clock;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.redisson.Redisson;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import redis.clients.jedis.JedisPooled;

/**
 * What one rate-limited call costs its thread when the limit is the whole cluster's, kept in a
 * local Redis: a limit far above what one thread can ask for, checked on every call, so every call
 * is admitted (a contender that refuses one fails the run). The peers ask Redis on the call's
 * thread: Bucket4j's Jedis backend (compare-and-swap: the bucket's state read, then a script that
 * swaps it) and Redisson's {@code RRateLimiter.tryAcquire()} (one script). Levee decides on the
 * call's thread from its local share, {@code scope: cluster} settling with Redis in the background
 * ({@link ClusterSync}, the agent's own thread, running while the benchmark does), and {@code
 * scope: local} is the same limit without a cluster. Each call also runs the hot path's few
 * nanoseconds of {@link Work}.
 *
 * <p>Redis: {@code -Dlevee.bench.redis=redis://127.0.0.1:PORT/0}, which {@code run-cluster.sh}
 * starts. Each contender is a state of its own, so a fork connects only what it measures.
 */
public class ClusterRateLimit {
  /** The peers' limit per second: a thread that waits on Redis for every call never nears it. */
  static final int PEER_RATE_PER_SECOND = 1_000_000;

  /**
   * Levee's: one thread deciding locally asks for tens of millions a second, so a limit of {@link
   * #PEER_RATE_PER_SECOND} would refuse most of its calls; this one, as in the hot path, admits
   * them all.
   */
  static final long LEVEE_RATE_PER_SECOND = HotPathRules.RATE_PER_SECOND;

  static final String URL = "http://bench.local/orders/42";

  @Benchmark
  public void bucket4j(Bucket4jState s) {
    if (!s.bucket.tryConsume(1)) {
      throw new IllegalStateException("Bucket4j refused a call");
    }
    Work.run();
  }

  @Benchmark
  public void redisson(RedissonState s) {
    if (!s.limiter.tryAcquire()) {
      throw new IllegalStateException("Redisson refused a call");
    }
    Work.run();
  }

  // The Levee rows: scope local, then the same limit with scope cluster.

  @Benchmark
  public void leveeLocal(LeveeLocalState s) {
    LeveeHotPath.admitted(s.engine, s.engine.http("GET", URL));
  }

  @Benchmark
  public void leveeCluster(LeveeClusterState s) {
    LeveeHotPath.admitted(s.engine, s.engine.http("GET", URL));
  }

  static String redisUrl() {
    String url = System.getProperty("levee.bench.redis");
    if (url == null || url.isEmpty()) {
      throw new IllegalStateException(
          "-Dlevee.bench.redis=redis://127.0.0.1:PORT/0 is not set: run benchmarks/run-cluster.sh");
    }
    return url;
  }

  @State(Scope.Benchmark)
  public static class Bucket4jState {
    JedisPooled jedis;
    BucketProxy bucket;

    @Setup(Level.Trial)
    public void connect() {
      jedis = new JedisPooled(URI.create(redisUrl()));
      byte[] key = "bench:bucket4j".getBytes(StandardCharsets.UTF_8);
      jedis.del(key);
      BucketConfiguration limit =
          BucketConfiguration.builder()
              .addLimit(
                  l ->
                      l.capacity(PEER_RATE_PER_SECOND)
                          .refillGreedy(PEER_RATE_PER_SECOND, Duration.ofSeconds(1)))
              .build();
      bucket =
          Bucket4jJedis.casBasedBuilder(jedis)
              .expirationAfterWrite(
                  ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(
                      Duration.ofSeconds(10)))
              .build()
              .builder()
              .build(key, () -> limit);
    }

    @TearDown(Level.Trial)
    public void close() {
      jedis.close();
    }
  }

  @State(Scope.Benchmark)
  public static class RedissonState {
    RedissonClient redisson;
    RRateLimiter limiter;

    @Setup(Level.Trial)
    public void connect() {
      URI url = URI.create(redisUrl());
      Config config = new Config();
      config
          .useSingleServer()
          .setAddress("redis://" + url.getHost() + ":" + url.getPort())
          .setConnectionMinimumIdleSize(1)
          .setConnectionPoolSize(2);
      redisson = Redisson.create(config);
      limiter = redisson.getRateLimiter("bench:redisson");
      limiter.delete();
      limiter.trySetRate(RateType.OVERALL, PEER_RATE_PER_SECOND, Duration.ofSeconds(1));
    }

    @TearDown(Level.Trial)
    public void close() {
      limiter.delete();
      redisson.shutdown();
    }
  }

  @State(Scope.Benchmark)
  public static class LeveeLocalState {
    Engine engine;

    @Setup(Level.Trial)
    public void build() {
      engine = engine(rules(""));
    }
  }

  @State(Scope.Benchmark)
  public static class LeveeClusterState {
    private static final long SETTLED_WITHIN_NANOS = TimeUnit.SECONDS.toNanos(10);

    Engine engine;
    ClusterSync sync;

    /** Starts settling, and waits for the first settling so that the share is the cluster's. */
    @Setup(Level.Trial)
    public void build() throws InterruptedException {
      engine =
          engine(
              rules(
                  "settings:\n  cluster: { redis: \"" + redisUrl() + "\", name: bench }\n",
                  ", scope: cluster"));
      sync = ClusterSync.start(engine, STDERR);
      long deadline = System.nanoTime() + SETTLED_WITHIN_NANOS;
      while (engine.clusterConnected() != Engine.CLUSTER_UP) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("no settling with " + redisUrl() + " within 10 s");
        }
        Thread.sleep(10);
      }
    }

    /** A run during which Redis stopped answering measured the fallback, not the cluster. */
    @TearDown(Level.Trial)
    public void close() {
      int connected = engine.clusterConnected();
      sync.close();
      if (connected != Engine.CLUSTER_UP) {
        throw new IllegalStateException("the settling with Redis failed during the run");
      }
    }
  }

  private static String rules(String settings) {
    return rules(settings, "");
  }

  private static String rules(String settings, String scope) {
    return "version: 1\n"
        + settings
        + "resources:\n"
        + "  - name: limited\n"
        + "    match: { http: { urls: [\"http://bench.local/**\"] } }\n"
        + "    rate-limit: { rate: "
        + LEVEE_RATE_PER_SECOND
        + "/s"
        + scope
        + " }\n";
  }

  /** As {@link LeveeHotPath#newEngine}: system clock, no CPU sampler, no durations. */
  private static Engine engine(String rules) {
    LoadResult loaded = RulesLoader.parse("cluster.yaml", rules);
    if (!loaded.ok()) {
      throw new IllegalStateException("benchmark rules rejected: " + loaded.errors());
    }
    Engine engine = new Engine(Clock.SYSTEM, CpuSource.UNKNOWN, Sleeper.SYSTEM, false);
    engine.apply(loaded.rules());
    return engine;
  }

  /** The settling thread's log lines, where JMH shows a fork's output. */
  private static final EventLog STDERR =
      new EventLog() {
        @Override
        public void info(String message) {
          System.err.println("[levee] INFO " + message);
        }

        @Override
        public void warn(String message) {
          System.err.println("[levee] WARN " + message);
        }

        @Override
        public void error(String message) {
          System.err.println("[levee] ERROR " + message);
        }
      };
}
