package io.levee.rules.engine;

import io.levee.rules.match.ResourceMatcher;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import io.levee.rules.policy.adaptive.CpuSource;
import io.levee.rules.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A rule set made ready for calls: the matcher, one runtime per resource (index = position in
 * {@code rules.resources}, as the matcher answers), the system runtime, and the permits of calls
 * that take both a resource's permit and the system's. Immutable once built; the engine swaps it
 * whole.
 */
final class CompiledRules {
  final RuleSet rules;
  final ResourceMatcher matcher;
  final ResourceRuntime[] resources;

  /** Null without a {@code system:} rule. */
  final SystemRuntime system;

  /** Per resource: its permit when the call took the system permit too. */
  final EnginePermit[] withSystem;

  /** As {@link #withSystem}, for a call the resource's breaker refused (monitor mode). */
  final EnginePermit[] withSystemUnprobed;

  private CompiledRules(RuleSet rules, ResourceRuntime[] resources, SystemRuntime system) {
    this.rules = rules;
    this.matcher = new ResourceMatcher(rules);
    this.resources = resources;
    this.system = system;
    this.withSystem = new EnginePermit[resources.length];
    this.withSystemUnprobed = new EnginePermit[resources.length];
    for (int i = 0; i < resources.length; i++) {
      if (system != null) {
        int cls = RequestClasses.ofResource(i);
        withSystem[i] = new EnginePermit(resources[i], system, true, cls);
        withSystemUnprobed[i] = new EnginePermit(resources[i], system, false, cls);
      }
    }
  }

  /**
   * Compiles {@code rules}, carrying over from {@code previous} (may be null) every runtime whose
   * rule did not change, so its breaker, buckets, limits and counters live on.
   */
  static CompiledRules compile(
      RuleSet rules,
      CompiledRules previous,
      Clock clock,
      CpuSource cpu,
      Sleeper sleeper,
      Engine engine) {
    Map<String, ResourceRuntime> old = new HashMap<>();
    if (previous != null) {
      for (ResourceRuntime r : previous.resources) {
        old.put(r.name(), r);
      }
    }
    int maxKeys = rules.settings.maxKeys;
    List<ResourceRule> list = rules.resources;
    ResourceRuntime[] runtimes = new ResourceRuntime[list.size()];
    for (int i = 0; i < runtimes.length; i++) {
      ResourceRule rule = list.get(i);
      ResourceRuntime kept = old.get(rule.name);
      runtimes[i] =
          kept != null && kept.sameAs(rule, maxKeys)
              ? kept
              : new ResourceRuntime(rule, maxKeys, clock, cpu, sleeper, engine);
    }
    SystemRuntime system = null;
    if (rules.system != null) {
      SystemRuntime kept = previous == null ? null : previous.system;
      system =
          kept != null && kept.sameAs(rules.system)
              ? kept
              : new SystemRuntime(rules.system, clock, cpu, engine);
    }
    return new CompiledRules(rules, runtimes, system);
  }
}
