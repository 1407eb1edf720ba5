package io.levee.agent.metrics;

import io.levee.rules.engine.Engine;
import io.levee.rules.engine.ResourceView;
import io.levee.rules.model.Mode;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import io.levee.rules.policy.adaptive.CpuSource;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.CountingMode;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;

/**
 * The meters of SPEC §4 on a Micrometer registry. Every meter reads a counter the engine keeps
 * anyway (function counters, gauges, a function timer over the duration sum and count), so metrics
 * add nothing to a call: no second count, no allocation, no lock.
 *
 * <p>Series come only from rule names and SPEC's fixed words, so the rules file bounds them. After
 * each {@link Engine#apply} the lifecycle calls {@link #sync()}: a resource no longer in force
 * loses its series, a new or changed one gets fresh meters on its new view, and an unchanged one
 * keeps its meters (the engine keeps its view object).
 *
 * <p>Concurrency: {@link #sync()} is synchronized; scrapes read meters from any thread, and may see
 * a resource just removed by a reload until the sync that follows it. The reload counts are
 * atomics.
 */
public final class LeveeMeters {
  private static final ToDoubleFunction<CpuSource> CPU_LOAD =
      new ToDoubleFunction<CpuSource>() {
        @Override
        public double applyAsDouble(CpuSource cpu) {
          return cpu.cpuLoad();
        }
      };
  private static final ToDoubleFunction<Engine> CONNECTED =
      new ToDoubleFunction<Engine>() {
        @Override
        public double applyAsDouble(Engine engine) {
          return engine.clusterConnected() == Engine.CLUSTER_UP ? 1 : 0;
        }
      };
  private static final ToDoubleFunction<AtomicLong> COUNT =
      new ToDoubleFunction<AtomicLong>() {
        @Override
        public double applyAsDouble(AtomicLong count) {
          return count.get();
        }
      };

  private final MeterRegistry registry;
  private final Engine engine;
  private final Map<String, ResourceMeters> bound = new LinkedHashMap<String, ResourceMeters>();
  private Meter clusterConnected;

  /**
   * Registers the process-wide meters and those of the resources in force. {@code reloadsApplied}
   * and {@code reloadsRejected} are the counts {@code levee.rules.reloads} reports.
   */
  public LeveeMeters(
      MeterRegistry registry,
      Engine engine,
      CpuSource cpu,
      AtomicLong reloadsApplied,
      AtomicLong reloadsRejected) {
    this.registry = registry;
    this.engine = engine;
    Gauge.builder("levee.cpu", cpu, CPU_LOAD)
        .description("Smoothed process CPU load the adaptive limits use, 0 to 1")
        .strongReference(true)
        .register(registry);
    reloads("applied", reloadsApplied);
    reloads("rejected", reloadsRejected);
    sync();
  }

  /**
   * A registry whose counters report totals since start, as Prometheus expects; Micrometer's simple
   * registry defaults to per-step deltas.
   */
  public static MeterRegistry newRegistry() {
    return new SimpleMeterRegistry(
        new SimpleConfig() {
          @Override
          public String get(String key) {
            return null;
          }

          @Override
          public CountingMode mode() {
            return CountingMode.CUMULATIVE;
          }
        },
        Clock.SYSTEM);
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** Brings the meters in line with the resources in force; call it after every apply. */
  public synchronized void sync() {
    RuleSet rules;
    List<ResourceView> views;
    do {
      rules = engine.rules();
      views = engine.resources();
    } while (engine.rules() != rules);
    Map<String, ResourceRule> byName = new HashMap<String, ResourceRule>();
    for (ResourceRule rule : rules.resources) {
      byName.put(rule.name, rule);
    }
    boolean hasSystem = rules.system != null && views.size() > rules.resources.size();
    Mode systemMode = hasSystem ? views.get(views.size() - 1).mode() : null;

    Map<String, ResourceMeters> next = new LinkedHashMap<String, ResourceMeters>();
    for (int i = 0; i < views.size(); i++) {
      ResourceView view = views.get(i);
      boolean isSystem = hasSystem && i == views.size() - 1;
      ResourceMeters wanted =
          new ResourceMeters(
              view,
              isSystem ? null : byName.get(view.name()),
              systemMode,
              hasSystem && rules.system.backpressure);
      ResourceMeters current = bound.get(view.name());
      if (current != null && current.view == view && current.shape.equals(wanted.shape)) {
        next.put(view.name(), current);
      } else {
        next.put(view.name(), wanted);
      }
    }
    for (Map.Entry<String, ResourceMeters> e : bound.entrySet()) {
      if (next.get(e.getKey()) != e.getValue()) {
        e.getValue().remove(registry);
      }
    }
    for (Map.Entry<String, ResourceMeters> e : next.entrySet()) {
      if (bound.get(e.getKey()) != e.getValue()) {
        e.getValue().register(registry);
      }
    }
    bound.clear();
    bound.putAll(next);
    syncCluster(rules);
  }

  /** {@code levee.cluster.connected}, while the rules have a cluster-scoped limit. */
  private void syncCluster(RuleSet rules) {
    boolean wanted = false;
    for (ResourceRule rule : rules.resources) {
      wanted |= rules.settings.cluster != null && rule.rateLimit != null && rule.rateLimit.cluster;
    }
    if (wanted && clusterConnected == null) {
      clusterConnected =
          Gauge.builder("levee.cluster.connected", engine, CONNECTED)
              .description("1 while the cluster-scoped limits settle with Redis, else 0")
              .strongReference(true)
              .register(registry);
    } else if (!wanted && clusterConnected != null) {
      registry.remove(clusterConnected);
      clusterConnected = null;
    }
  }

  private void reloads(String result, AtomicLong count) {
    FunctionCounter.builder("levee.rules.reloads", count, COUNT)
        .description("Rules reloads by result")
        .tag("result", result)
        .register(registry);
  }
}
