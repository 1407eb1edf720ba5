package io.levee.benchmarks;

import io.levee.agent.endpoint.LocalEndpoint;
import io.levee.agent.lifecycle.Observability;
import io.levee.agent.log.EventLog;
import io.levee.rules.engine.Engine;
import io.levee.rules.policy.adaptive.CpuSource;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@link LeveeHotPath}'s three cases with the agent's metrics off and on, to show that metrics add
 * nothing to a call. With {@code on}, the engine is observed exactly as the agent does with its
 * {@code http} option ({@link Observability#startNow}: the Micrometer meters, the log thread, the
 * local endpoint on a free loopback port), and a daemon thread scrapes {@code /metrics} over HTTP
 * once a second, as Prometheus would, for the whole trial, and the engine keeps durations, as the
 * agent's does then. {@code off} runs the same code on an engine nobody observes, without
 * durations. Only the agent's own API is used: its Micrometer is relocated inside it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class MetricsHotPath {
  private static final long SCRAPE_EVERY_MILLIS = 1000;

  @Param({"off", "on"})
  public String metrics;

  private Engine engine;
  private Observability observability;
  private Thread scraper;
  private final AtomicLong scrapes = new AtomicLong();
  private volatile String scrapeFailure;

  @Setup
  public void setUp() throws IOException {
    engine = LeveeHotPath.newEngine("on".equals(metrics));
    if (!"on".equals(metrics)) {
      return;
    }
    observability = Observability.startNow(engine, CpuSource.UNKNOWN, "127.0.0.1:0", SILENT);
    LocalEndpoint endpoint = observability.endpoint();
    if (endpoint == null) {
      throw new IllegalStateException("the metrics endpoint did not start");
    }
    URL url = new URL("http://" + endpoint.address() + "/metrics");
    if (!scrape(url).contains("levee_calls_total{")) {
      throw new IllegalStateException("no per-resource meters at " + url);
    }
    scraper = new Thread(() -> scrapeEverySecond(url), "metrics-scraper");
    scraper.setDaemon(true);
    scraper.start();
  }

  @TearDown
  public void tearDown() throws InterruptedException {
    if (scraper != null) {
      scraper.interrupt();
      scraper.join();
      observability.close();
      System.out.println();
      System.out.println("metrics scrapes during the trial: " + scrapes.get());
      if (scrapeFailure != null) {
        throw new IllegalStateException("a scrape failed: " + scrapeFailure);
      }
    }
  }

  @Benchmark
  public void noMatch() {
    LeveeHotPath.noMatch(engine);
  }

  @Benchmark
  public void rateLimit() {
    LeveeHotPath.admitted(engine, engine.http("GET", HotPathRules.RATE_LIMIT_URL));
  }

  @Benchmark
  public void combined() {
    LeveeHotPath.admitted(engine, engine.http("GET", HotPathRules.COMBINED_URL));
  }

  private void scrapeEverySecond(URL url) {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(SCRAPE_EVERY_MILLIS);
        scrape(url);
        scrapes.incrementAndGet();
      } catch (InterruptedException e) {
        return;
      } catch (IOException e) {
        scrapeFailure = e.toString();
      }
    }
  }

  private static String scrape(URL url) throws IOException {
    HttpURLConnection c = (HttpURLConnection) url.openConnection();
    try (InputStream in = c.getInputStream()) {
      if (c.getResponseCode() != 200) {
        throw new IOException(url + " answered " + c.getResponseCode());
      }
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } finally {
      c.disconnect();
    }
  }

  private static final EventLog SILENT =
      new EventLog() {
        @Override
        public void info(String message) {}

        @Override
        public void warn(String message) {}

        @Override
        public void error(String message) {}
      };
}
