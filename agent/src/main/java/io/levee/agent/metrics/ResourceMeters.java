package io.levee.agent.metrics;

import io.levee.rules.engine.Outcome;
import io.levee.rules.engine.Reason;
import io.levee.rules.engine.ResourceView;
import io.levee.rules.model.CallKind;
import io.levee.rules.model.Mode;
import io.levee.rules.model.ResourceRule;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The meters of one resource in force, each reading the resource's live {@link ResourceView} when
 * scraped. Which series exist follows from the rule, so none is a constant zero that cannot move:
 * {@code levee.blocked} has one series per policy the resource has (in its own mode) plus {@code
 * system} for servlet resources under a {@code system:} rule (in that rule's mode); {@code
 * levee.limit} only with a concurrency or adaptive limit, {@code levee.breaker.state} only with a
 * breaker, {@code levee.keys.evicted} only with a per-key rate limit, {@code levee.fallback} only
 * for an http resource with a fallback (its {@code last-good} series, and {@code
 * levee.fallback.kept}, only with {@code last-good} in enforce mode), {@code levee.backpressure}
 * only where {@code backpressure} is set. The {@link #shape} names that choice, so a reload that
 * changes it re-registers the meters even if the view stayed.
 *
 * <p>Concurrency: built and removed only by {@link LeveeMeters#sync()}, which is synchronized.
 */
final class ResourceMeters {
  private static final Outcome[] OUTCOMES = {Outcome.SUCCESS, Outcome.FAILURE, Outcome.SLOW};

  final ResourceView view;
  final String shape;
  private final List<Reason> reasons;
  private final List<Mode> modes;
  private final boolean perKey;
  private final boolean fallback;
  private final boolean lastGood;

  /** Whether requests this view answers with backpressure are counted on it. */
  private final boolean backpressure;

  private final List<Meter> meters = new ArrayList<Meter>();

  /**
   * {@code rule} is the view's rule, or null for the {@code system} view; {@code systemMode} is the
   * mode of the {@code system:} rule, or null when there is none.
   */
  ResourceMeters(ResourceView view, ResourceRule rule, Mode systemMode) {
    this(view, rule, systemMode, false);
  }

  /**
   * {@code systemBackpressure}: whether the {@code system:} rule has {@code backpressure}, which
   * counts on the {@code system} view (a resource counts only when it sets it itself).
   */
  ResourceMeters(
      ResourceView view, ResourceRule rule, Mode systemMode, boolean systemBackpressure) {
    this.view = view;
    this.backpressure = rule == null ? systemBackpressure : Boolean.TRUE.equals(rule.backpressure);
    this.reasons = new ArrayList<Reason>();
    this.modes = new ArrayList<Mode>();
    if (rule == null) {
      add(Reason.SYSTEM, view.mode());
      perKey = false;
      fallback = false;
      lastGood = false;
    } else {
      if (rule.circuitBreaker != null) {
        add(Reason.CIRCUIT_OPEN, view.mode());
      }
      if (rule.rateLimit != null) {
        add(Reason.RATE_LIMIT, view.mode());
      }
      if (rule.concurrency != null) {
        add(Reason.CONCURRENCY, view.mode());
      }
      if (rule.adaptive != null) {
        add(Reason.ADAPTIVE, view.mode());
      }
      if (systemMode != null && rule.match.kind == CallKind.SERVLET) {
        add(Reason.SYSTEM, systemMode);
      }
      perKey =
          rule.rateLimit != null
              && rule.rateLimit.per != null
              && rule.match.kind == CallKind.SERVLET;
      fallback =
          rule.match.kind == CallKind.HTTP
              && rule.onBlock.fallback != null
              && rule.mode == Mode.ENFORCE;
      lastGood = fallback && rule.onBlock.fallback.lastGood != null;
    }
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < reasons.size(); i++) {
      s.append(reasons.get(i).key).append('=').append(word(modes.get(i))).append(',');
    }
    s.append(view.limit() >= 0 ? "limit," : "").append(view.breakerState() >= 0 ? "breaker," : "");
    s.append(fallback ? "fallback," : "").append(lastGood ? "last-good," : "");
    s.append(view.clusterScoped() ? "cluster," : "").append(backpressure ? "backpressure," : "");
    this.shape = s.append(perKey ? "keys" : "").toString();
  }

  void register(MeterRegistry registry) {
    String name = view.name();
    String kind = view.kind();
    for (Outcome outcome : OUTCOMES) {
      meters.add(
          FunctionCounter.builder("levee.calls", view, ViewFunctions.calls(outcome))
              .description("Completed calls by outcome")
              .tags("resource", name, "kind", kind, "outcome", outcome.key)
              .register(registry));
    }
    for (int i = 0; i < reasons.size(); i++) {
      Reason reason = reasons.get(i);
      Mode mode = modes.get(i);
      meters.add(
          FunctionCounter.builder(
                  "levee.blocked", view, ViewFunctions.blocked(reason, mode == Mode.MONITOR))
              .description("Calls blocked (enforce) or that would have been blocked (monitor)")
              .tags("resource", name, "kind", kind, "reason", reason.key, "mode", word(mode))
              .register(registry));
    }
    meters.add(
        FunctionTimer.builder(
                "levee.call.duration",
                view,
                ViewFunctions.DURATION_COUNT,
                ViewFunctions.DURATION_SUM,
                ViewFunctions.DURATION_UNIT)
            .description("Duration of completed calls")
            .tags("resource", name, "kind", kind)
            .register(registry));
    meters.add(
        Gauge.builder("levee.inflight", view, ViewFunctions.IN_FLIGHT)
            .description("Calls admitted and not completed yet")
            .tag("resource", name)
            .register(registry));
    if (view.limit() >= 0) {
      meters.add(
          Gauge.builder("levee.limit", view, ViewFunctions.LIMIT)
              .description("Concurrency limit in force, adaptive or fixed")
              .tag("resource", name)
              .register(registry));
    }
    if (view.breakerState() >= 0) {
      meters.add(
          Gauge.builder("levee.breaker.state", view, ViewFunctions.BREAKER_STATE)
              .description("Circuit breaker state: 0 closed, 1 open, 2 half-open")
              .tag("resource", name)
              .register(registry));
    }
    if (fallback) {
      registerFallbacks(registry, name);
    }
    if (backpressure) {
      meters.add(
          FunctionCounter.builder("levee.backpressure", view, ViewFunctions.backpressured(view))
              .description(
                  "Requests that failed after a refused outbound call, answered as blocked"
                      + " (enforce) or that would have been (monitor)")
              .tags("resource", name, "mode", word(view.mode()))
              .register(registry));
    }
    if (view.clusterScoped()) {
      registerCluster(registry, name);
    }
    if (perKey) {
      meters.add(
          FunctionCounter.builder("levee.keys.evicted", view, ViewFunctions.KEYS_EVICTED)
              .description("Per-key rate-limit buckets evicted to stay within max-keys")
              .tag("resource", name)
              .register(registry));
    }
  }

  private void registerCluster(MeterRegistry registry, String name) {
    meters.add(
        Gauge.builder("levee.cluster.instances", view, ViewFunctions.CLUSTER_INSTANCES)
            .description("Instances the cluster last counted for this resource's shared rate")
            .tag("resource", name)
            .register(registry));
  }

  private void registerFallbacks(MeterRegistry registry, String name) {
    for (boolean kept : lastGood ? new boolean[] {false, true} : new boolean[] {false}) {
      meters.add(
          FunctionCounter.builder("levee.fallback", view, ViewFunctions.fallbacks(kept))
              .description("Blocked http calls answered with a fallback")
              .tags("resource", name, "answer", kept ? "last-good" : "static")
              .register(registry));
    }
    if (lastGood) {
      meters.add(
          Gauge.builder("levee.fallback.kept", view, ViewFunctions.LAST_GOOD_KEPT)
              .description("Last good answers kept for fallback.last-good")
              .tag("resource", name)
              .register(registry));
    }
  }

  void remove(MeterRegistry registry) {
    for (Meter meter : meters) {
      registry.remove(meter);
    }
    meters.clear();
  }

  static String word(Mode mode) {
    return mode.name().toLowerCase(Locale.ROOT);
  }

  private void add(Reason reason, Mode mode) {
    reasons.add(reason);
    modes.add(mode);
  }
}
