package io.levee.rules.engine;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Faults;
import io.levee.rules.model.RuleSet;
import io.levee.rules.policy.CircuitBreaker;
import io.levee.rules.policy.adaptive.CpuSource;
import io.levee.rules.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Decides about calls described by plain values, with the rules in force: which resource (the
 * first that matches), then the system rule for inbound requests, then the resource's policies in
 * SPEC order. Each decide method returns null (not tracked), a {@link Blocked} answer, or an
 * {@link io.levee.bootstrap.Permit} that must come back to {@link #complete} exactly once.
 *
 * <p>An admitted call allocates nothing and takes no lock: the permits are preallocated, the
 * matcher caches, counters are adders. A blocked call may allocate its answer. The clock is read
 * at most once per decision (only when a policy needs the time) and once per completion, and that
 * instant is handed to every policy: on a virtual machine one read can cost more than the rest of
 * the decision.
 *
 * <p>Concurrency: the rules in force are one immutable {@link CompiledRules} behind a volatile
 * reference; {@link #apply} builds the next one aside (serialised by {@code applying}) and swaps it
 * in one write, so a call sees either the old rules or the new ones, never a mix. A permit handed
 * out under the old rules completes against the runtimes it came from.
 */
public final class Engine {
  /** Told of every circuit breaker transition, for the agent's log. */
  public interface Listener {
    void onTransition(String resource, int from, int to, String why);
  }

  private final Clock clock;
  private final CpuSource cpu;
  private final Sleeper sleeper;
  private final Object applying = new Object();
  private volatile CompiledRules compiled;
  private volatile Listener listener;

  public Engine(Clock clock, CpuSource cpu, Sleeper sleeper) {
    this.clock = clock;
    this.cpu = cpu;
    this.sleeper = sleeper;
    this.compiled = CompiledRules.compile(RuleSet.EMPTY, null, clock, cpu, sleeper, this);
  }

  /** Puts {@code rules} in force; resources whose rule did not change keep their state. */
  public void apply(RuleSet rules) {
    synchronized (applying) {
      compiled = CompiledRules.compile(rules, compiled, clock, cpu, sleeper, this);
    }
  }

  public RuleSet rules() {
    return compiled.rules;
  }

  public void setListener(Listener listener) {
    this.listener = listener;
  }

  /** An inbound request at its outermost dispatch; {@code keys} reads per-key rate-limit keys. */
  public Object servlet(String method, String path, Object request, KeySource keys) {
    Faults.at(Faults.MATCH);
    CompiledRules c = compiled;
    int i = c.matcher.servlet(method, path);
    ResourceRuntime resource = i < 0 ? null : c.resources[i];
    SystemRuntime system = c.system;
    if (system != null && c.matcher.systemExcluded(path)) {
      system = null;
    }
    long now = system != null || (resource != null && resource.timed) ? clock.nanoTime() : 0L;
    if (system != null) {
      Blocked shed = system.decide(resource, now);
      if (shed != null) {
        return shed;
      }
    }
    if (resource == null) {
      if (system == null) {
        return null;
      }
      system.countAdmitted();
      return system.permit;
    }
    Object decision;
    try {
      decision = resource.decide(request, keys, now);
    } catch (RuntimeException | Error e) {
      // The call goes through untracked: the system permit taken above must not leak.
      if (system != null) {
        system.giveBack();
      }
      throw e;
    }
    if (decision instanceof Blocked) {
      if (system != null) {
        system.giveBack();
      }
      return decision;
    }
    resource.countAdmitted();
    if (system == null) {
      return decision;
    }
    system.countAdmitted();
    return ((EnginePermit) decision).breakerAdmitted ? c.withSystem[i] : c.withSystemUnprobed[i];
  }

  /** An outbound {@code HttpURLConnection} call. */
  public Object http(String method, String url) {
    Faults.at(Faults.MATCH);
    CompiledRules c = compiled;
    return decide(c, c.matcher.http(method, url));
  }

  /** A statement execution; {@code sql} may be null. */
  public Object jdbc(String jdbcUrl, String sql) {
    Faults.at(Faults.MATCH);
    CompiledRules c = compiled;
    return decide(c, c.matcher.jdbc(jdbcUrl, sql));
  }

  /** Acquiring a connection. */
  public Object jdbcConnect(String jdbcUrl) {
    Faults.at(Faults.MATCH);
    CompiledRules c = compiled;
    return decide(c, c.matcher.jdbcConnect(jdbcUrl));
  }

  /**
   * The outcome of a call a decide method admitted: {@code status} the HTTP status or -1, {@code
   * error} the exception that ended it or null. Anything but an engine permit is ignored.
   */
  public void complete(Object permit, long startNanos, int status, Throwable error) {
    if (!(permit instanceof EnginePermit)) {
      return;
    }
    EnginePermit p = (EnginePermit) permit;
    long now = clock.nanoTime();
    long duration = Math.max(0, now - startNanos);
    Outcome outcome = null;
    try {
      if (p.resource != null) {
        outcome = p.resource.complete(now, duration, status, error, p.breakerAdmitted);
      }
    } finally {
      if (p.system != null) {
        p.system.complete(now, duration, status, error, outcome);
      }
    }
  }

  /** A snapshot of every resource in force, in file order, then {@code system} if there is one. */
  public List<ResourceStatus> status() {
    List<ResourceView> views = resources();
    List<ResourceStatus> status = new ArrayList<>(views.size());
    for (ResourceView view : views) {
      status.add(new ResourceStatus(view));
    }
    return status;
  }

  /** The live views of every resource in force, in file order, then {@code system} if there is one. */
  public List<ResourceView> resources() {
    CompiledRules c = compiled;
    List<ResourceView> views = new ArrayList<>(c.resources.length + 1);
    Collections.addAll(views, c.resources);
    if (c.system != null) {
      views.add(c.system);
    }
    return Collections.unmodifiableList(views);
  }

  CircuitBreaker.Listener breakerListener(final String resource) {
    return new CircuitBreaker.Listener() {
      @Override
      public void onTransition(int from, int to, String why) {
        Listener l = listener;
        if (l != null) {
          l.onTransition(resource, from, to, why);
        }
      }
    };
  }

  private Object decide(CompiledRules c, int i) {
    if (i < 0) {
      return null;
    }
    ResourceRuntime resource = c.resources[i];
    long now = resource.timed ? clock.nanoTime() : 0L;
    Object decision = resource.decide(null, null, now);
    if (!(decision instanceof Blocked)) {
      resource.countAdmitted();
    }
    return decision;
  }
}
