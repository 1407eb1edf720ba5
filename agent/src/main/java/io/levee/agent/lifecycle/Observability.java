package io.levee.agent.lifecycle;

import io.levee.agent.endpoint.EndpointAddress;
import io.levee.agent.endpoint.LocalEndpoint;
import io.levee.agent.endpoint.RulesEvents;
import io.levee.agent.log.BlockSummary;
import io.levee.agent.log.EngineLog;
import io.levee.agent.log.EventLog;
import io.levee.agent.log.LogThread;
import io.levee.agent.log.MicrometerLog;
import io.levee.agent.metrics.LeveeMeters;
import io.levee.rules.engine.Engine;
import io.levee.rules.load.RuleError;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import io.levee.rules.policy.adaptive.CpuSource;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Everything the agent tells about itself, started with one call and stopped with {@link #close()}:
 * a log line per breaker transition and per reload, a summary of blocked calls every {@value
 * #SUMMARY_SECONDS} seconds, and, with the {@code http} option, the Micrometer meters and the local
 * endpoint. Nothing of it runs on a call's path: meters and summary read the engine's counters.
 *
 * <p>{@link #start} does only what is cheap and safe in premain (no Micrometer, no socket, no
 * lambda); the rest runs first thing on the {@code levee-log} thread. The lifecycle tells it of
 * every reload through {@link #rulesApplied} and {@link #rulesRejected}.
 *
 * <p>Concurrency: {@code lock} guards {@code meters}, {@code endpoint} and {@code closed} between
 * the log thread (deferred start), the lifecycle (reloads) and detach (close).
 */
public final class Observability implements Closeable {
  static final long SUMMARY_SECONDS = 10;

  private final Engine engine;
  private final CpuSource cpu;
  private final EndpointAddress address;
  private final LogThread log;
  private final AtomicLong reloadsApplied = new AtomicLong();
  private final AtomicLong reloadsRejected = new AtomicLong();
  private final RulesEvents rulesEvents = new RulesEvents(System.currentTimeMillis());
  private final Object lock = new Object();
  private LeveeMeters meters;
  private LocalEndpoint endpoint;
  private boolean closed;

  private Observability(Engine engine, CpuSource cpu, String http, EventLog target) {
    this.engine = engine;
    this.cpu = cpu;
    this.address = address(http, target);
    this.log =
        new LogThread(
            target,
            new BlockSummary(engine, target, SUMMARY_SECONDS),
            TimeUnit.SECONDS.toNanos(SUMMARY_SECONDS));
    engine.setListener(new EngineLog(log));
  }

  /**
   * Starts logging breaker transitions and block summaries and, when {@code http} (the option's
   * text, may be null) is set, the meters and the endpoint, in the background. Never throws for a
   * bad {@code http}: that is logged and the endpoint stays off.
   */
  public static Observability start(Engine engine, CpuSource cpu, String http, EventLog log) {
    final Observability o = new Observability(engine, cpu, http, log);
    o.log.start(
        new Runnable() {
          @Override
          public void run() {
            o.startMetrics();
          }
        });
    return o;
  }

  /** Like {@link #start}, but the meters and the endpoint are up when it returns. */
  public static Observability startNow(Engine engine, CpuSource cpu, String http, EventLog log) {
    Observability o = new Observability(engine, cpu, http, log);
    o.startMetrics();
    o.log.start(null);
    return o;
  }

  /** After a reload's {@link Engine#apply}: counts it, logs it, and brings the meters in line. */
  public void rulesApplied(RuleSet rules) {
    reloadsApplied.incrementAndGet();
    rulesEvents.applied(System.currentTimeMillis());
    StringBuilder names = new StringBuilder();
    for (ResourceRule rule : rules.resources) {
      names.append(names.length() == 0 ? "" : ", ").append(rule.name);
    }
    int n = rules.resources.size();
    log.info(
        "rules reloaded from "
            + rules.source
            + ": "
            + n
            + (n == 1 ? " resource" : " resources")
            + (n == 0 ? "" : " (" + names + ")")
            + (rules.system == null ? "" : " and the system rule"));
    sync();
  }

  /** A reload whose file had errors: nothing of it was applied, the rules in force stay. */
  public void rulesRejected(String source, List<RuleError> errors) {
    // Only counted here: the reload watcher already logged the rejection with each error.
    reloadsRejected.incrementAndGet();
    rulesEvents.rejected(System.currentTimeMillis(), source, errors);
  }

  /** Brings the meters in line with the resources in force; {@link #rulesApplied} calls it. */
  public void sync() {
    synchronized (lock) {
      if (meters != null) {
        meters.sync();
      }
    }
  }

  /** The registry the meters are on, or null without the {@code http} option (or before start). */
  public MeterRegistry registry() {
    synchronized (lock) {
      return meters == null ? null : meters.registry();
    }
  }

  /** The endpoint, or null when it is off or not started yet. */
  public LocalEndpoint endpoint() {
    synchronized (lock) {
      return endpoint;
    }
  }

  /** Stops the endpoint (freeing its port), the log thread and the breaker log. */
  @Override
  public void close() {
    LocalEndpoint e;
    synchronized (lock) {
      closed = true;
      e = endpoint;
      endpoint = null;
      if (meters != null) {
        meters.registry().close();
        meters = null;
      }
    }
    if (e != null) {
      e.close();
    }
    engine.setListener(null);
    log.close();
  }

  private void startMetrics() {
    if (address == null) {
      return;
    }
    synchronized (lock) {
      if (closed) {
        return;
      }
      try {
        MicrometerLog.install(log);
        meters =
            new LeveeMeters(
                LeveeMeters.newRegistry(), engine, cpu, reloadsApplied, reloadsRejected);
        endpoint = LocalEndpoint.start(address, engine, meters.registry(), cpu, rulesEvents, log);
      } catch (IOException e) {
        log.error("cannot serve metrics at " + address + " (" + e.getMessage() + "): endpoint off");
      } catch (Throwable e) {
        log.error("cannot start the metrics (" + e + "): endpoint off");
      }
    }
  }

  private static EndpointAddress address(String http, EventLog log) {
    if (http == null || http.trim().isEmpty()) {
      return null;
    }
    try {
      return EndpointAddress.parse(http);
    } catch (IllegalArgumentException e) {
      log.error(e.getMessage() + ": the endpoint is off");
      return null;
    }
  }
}
