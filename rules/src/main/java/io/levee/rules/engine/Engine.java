package io.levee.rules.engine;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Faults;
import io.levee.bootstrap.http.LastGoodKeeper;
import io.levee.bootstrap.method.OpenMethods;
import io.levee.rules.model.Priority;
import io.levee.rules.model.RuleSet;
import io.levee.rules.policy.adaptive.CpuSource;
import io.levee.rules.policy.adaptive.LimitTrace;
import io.levee.rules.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Decides about calls described by plain values, with the rules in force: which resource (the first
 * that matches), then the system rule for inbound requests, then the resource's policies in SPEC
 * order. Each decide method returns null (not tracked), a {@link Blocked} answer, or an {@link
 * io.levee.bootstrap.Permit} that must come back to {@link #complete} exactly once.
 *
 * <p>An admitted call allocates nothing and takes no lock: the permits are preallocated, the
 * matcher caches, counters are adders. A blocked call may allocate its answer.
 *
 * <p>Clock reads: on a virtual machine one read can cost more than the rest of the decision, so an
 * admitted call reads it at most twice, and only as much as something needs the time. A call is
 * timed (its start and end are needed) when its resource has a circuit breaker or an adaptive
 * limit, when the system rule took it, or when the engine keeps durations for the metrics ({@code
 * durations}). The decision reads the clock once when a policy or the timing needs it and hands
 * that instant to every policy; it is also the call's start ({@link #start}) unless a policy
 * waited. {@link #complete} reads it once for a timed call and not at all otherwise. So a rate
 * limit alone, without metrics, costs one read; a breaker, or any resource with metrics on, two.
 *
 * <p>Concurrency: the rules in force are one immutable {@link CompiledRules} behind a volatile
 * reference; {@link #apply} builds the next one aside (serialised by {@code applying}) and swaps it
 * in one write, so a call sees either the old rules or the new ones, never a mix. A permit handed
 * out under the old rules completes against the runtimes it came from.
 */
public final class Engine {
  /**
   * Told of every circuit breaker transition, for the agent's log; {@code monitor}: the resource is
   * in monitor mode, so the breaker only counts what it would have refused. While {@link
   * #tracesLimits} says so, also told of every window of every adaptive limit ({@link LimitTrace}).
   */
  public interface Listener {
    void onTransition(String resource, boolean monitor, int from, int to, String why);

    /** Whether {@link #onLimitWindow} is wanted now (the agent's log at {@code debug}). */
    default boolean tracesLimits() {
      return false;
    }

    /** An adaptive limit's window closed: {@code line} as {@link LimitTrace#line} words it. */
    default void onLimitWindow(String resource, String line) {}
  }

  private final Clock clock;
  private final CpuSource cpu;
  private final Sleeper sleeper;

  /** Whether every call is timed, for the {@code levee.call.duration} meter. */
  final boolean durations;

  final CallStarts starts;
  private final Object applying = new Object();
  private volatile CompiledRules compiled;
  final ListenerRelay listeners = new ListenerRelay();

  /** Who is told of each decision; the runtimes tell it directly. */
  final Telling telling = new Telling();

  /** An engine that keeps the duration of every call. */
  public Engine(Clock clock, CpuSource cpu, Sleeper sleeper) {
    this(clock, cpu, sleeper, true);
  }

  /**
   * {@code durations}: keep the duration of every call ({@link ResourceView#durationSumNanos}),
   * which costs a clock read at the end of calls that no policy times; only the metrics read it.
   */
  public Engine(Clock clock, CpuSource cpu, Sleeper sleeper, boolean durations) {
    this.clock = clock;
    this.cpu = cpu;
    this.sleeper = sleeper;
    this.durations = durations;
    this.starts = new CallStarts(clock);
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
    listeners.set(listener);
  }

  /** Who is told of each decision, for tracing; null for nobody. */
  public void setDecisions(Decisions decisions) {
    telling.set(decisions);
  }

  /** The listener {@link #setDecisions} set, or null. */
  public Decisions decisions() {
    return telling.get();
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
    int asks = 0;
    if (system != null) {
      asks = starts.decidedIn(now, system.window());
    } else if (resource != null && resource.timesCalls) {
      starts.decided(now);
    }
    int cls = 0;
    if (system != null) {
      cls = i >= 0 ? RequestClasses.ofResource(i) : RequestClasses.ofPath(path);
      Priority priority = resource == null ? Priority.NORMAL : resource.priority;
      Blocked shed = system.decide(resource, cls, priority, now, asks, this);
      if (shed != null) {
        return shed;
      }
    }
    if (resource == null) {
      if (system == null) {
        return null;
      }
      system.countAdmitted();
      return system.permit(cls);
    }
    Object decision;
    try {
      decision = resource.decide(request, keys, now);
    } catch (RuntimeException | Error e) {
      // The call goes through untracked: the system permit taken above must not leak.
      if (system != null) {
        system.giveBack(cls, resource.priority);
      }
      throw e;
    }
    if (decision instanceof Blocked) {
      if (system != null) {
        system.giveBack(cls, resource.priority);
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

  /**
   * An outbound HTTP call; {@code url} in full. A blocked {@code GET} with a fallback gets the last
   * good answer of its URL when its resource keeps one ({@link Blocked#lastGood}).
   */
  public Object http(String method, String url) {
    Faults.at(Faults.MATCH);
    CompiledRules c = compiled;
    int i = c.matcher.http(method, url);
    Object decision = decide(c, i);
    return decision instanceof Blocked
        ? c.resources[i].answer(method, url, (Blocked) decision)
        : decision;
  }

  /**
   * Whether the resource that admitted {@code permit} keeps last good answers, so that the client
   * should offer it the answer ({@link #lastGood}). A field read; false for anything but a permit.
   */
  public boolean keepsLastGood(Object permit) {
    return permit instanceof EnginePermit
        && ((EnginePermit) permit).resource != null
        && ((EnginePermit) permit).resource.lastGood != null;
  }

  /**
   * Where the body of the answer to an admitted call goes to become the last good answer of {@code
   * url}, or null when it is not to be kept: its resource keeps none, not a {@code GET}, not 2xx,
   * {@code no-store} or {@code private}, or longer than {@code max-body}. {@code headers}: the
   * answer's, as name, value, name, value...
   */
  public LastGoodKeeper lastGood(
      Object permit, String method, String url, int status, String[] headers) {
    if (!keepsLastGood(permit) || !"GET".equals(method)) {
      return null;
    }
    return ((EnginePermit) permit).resource.lastGood.keeper(url, status, headers);
  }

  /**
   * Forgets every last good answer of the resources in force and keeps none from now on: the agent
   * detached, and what it kept must not outlive it.
   */
  public void forgetLastGood() {
    for (ResourceRuntime r : compiled.resources) {
      if (r.lastGood != null) {
        r.lastGood.close();
      }
    }
  }

  /** A statement execution; {@code sql} may be null. */
  public Object jdbc(String jdbcUrl, String sql) {
    Faults.at(Faults.MATCH);
    CompiledRules c = compiled;
    return decide(c, c.matcher.jdbc(jdbcUrl, sql));
  }

  /** Whether a resource would decide acquiring a connection to {@code jdbcUrl}; decides nothing. */
  public boolean jdbcConnectMatches(String jdbcUrl) {
    return compiled.matcher.jdbcConnect(jdbcUrl) >= 0;
  }

  /**
   * Whether deciding a statement on the database at {@code jdbcUrl} (null: not known) may need its
   * SQL: a jdbc resource that could match there names operations, tables or SQL. Decides nothing.
   */
  public boolean jdbcReadsSql(String jdbcUrl) {
    return compiled.matcher.jdbcReadsSql(jdbcUrl);
  }

  /** Acquiring a connection. */
  public Object jdbcConnect(String jdbcUrl) {
    Faults.at(Faults.MATCH);
    CompiledRules c = compiled;
    return decide(c, c.matcher.jdbcConnect(jdbcUrl));
  }

  /**
   * A call of a method woven for a {@code method} resource. Only the outermost call of a resource
   * on a thread is decided: one that a call of the same resource makes, directly or through a
   * proxy, an override's {@code super} call or recursion, is not tracked. The method hooks keep the
   * admitted calls open on their thread ({@link OpenMethods}, by {@link
   * io.levee.bootstrap.Permit#resourceId}), so that whatever dispatcher a call's end meets, a
   * detach included, it is closed.
   */
  public Object method(MethodSite site) {
    Faults.at(Faults.MATCH);
    CompiledRules c = compiled;
    int i = site.resourceIn(c);
    if (i < 0 || OpenMethods.isOpen(c.resources[i].id)) {
      return null;
    }
    return decide(c, i);
  }

  /** The outcome of a call {@link #method} admitted: a method has no status. */
  public void methodDone(Object permit, long startNanos, Throwable error) {
    complete(permit, startNanos, -1, error);
  }

  /**
   * The start of a call a decide method just admitted on this thread, for {@link #complete}: the
   * decision's own clock read when no policy waited, and 0 without a read when nothing times the
   * call. Ask right after the decision, on the same thread.
   */
  public long start(Object permit) {
    if (!(permit instanceof EnginePermit) || !((EnginePermit) permit).timed) {
      return 0L;
    }
    return starts.take();
  }

  /**
   * The outcome of a call a decide method admitted, which started at {@code startNanos} (from
   * {@link #start}): {@code status} the HTTP status or -1, {@code error} the exception that ended
   * it or null. Anything but an engine permit is ignored.
   */
  public void complete(Object permit, long startNanos, int status, Throwable error) {
    if (!(permit instanceof EnginePermit)) {
      return;
    }
    EnginePermit p = (EnginePermit) permit;
    long now = 0L;
    long duration = 0L;
    if (p.timed) {
      now = clock.nanoTime();
      duration = Math.max(0, now - startNanos);
    }
    Outcome outcome = null;
    try {
      if (p.resource != null) {
        outcome = p.resource.complete(now, duration, status, error, p.breakerAdmitted);
      }
    } finally {
      if (p.system != null) {
        p.system.complete(now, duration, status, error, outcome, p.systemClass, p.systemPriority);
      }
    }
  }

  /**
   * What a request {@code permit} admitted answers instead of its 5xx after {@code refused} refused
   * one of its calls ({@code backpressure}); null when none applies or in monitor mode.
   */
  public Blocked backpressure(Object permit, Blocked refused) {
    if (!(permit instanceof EnginePermit) || !((EnginePermit) permit).backpressure) {
      return null;
    }
    ResourceView by = ((EnginePermit) permit).backpressureBy();
    return by == null ? null : by.answerRefused(refused);
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

  /** {@link #clusterConnected()}: no cluster is in use. */
  public static final int CLUSTER_NONE = -1;

  /** {@link #clusterConnected()}: the cluster's store cannot be reached now. */
  public static final int CLUSTER_DOWN = 0;

  /** {@link #clusterConnected()}: the last settling with the cluster's store succeeded. */
  public static final int CLUSTER_UP = 1;

  private volatile int clusterConnected = CLUSTER_NONE;

  /**
   * Whether the cluster-scoped limits settle with their store: {@link #CLUSTER_UP}, {@link
   * #CLUSTER_DOWN}, or {@link #CLUSTER_NONE} without a cluster; set by whoever settles them.
   */
  public int clusterConnected() {
    return clusterConnected;
  }

  public void clusterConnected(int state) {
    clusterConnected = state;
  }

  /** Shows {@code visitor} every cluster-scoped bucket in force. */
  public void forEachClusterBucket(ClusterVisitor visitor) {
    for (ResourceRuntime r : compiled.resources) {
      r.forEachClusterBucket(visitor);
    }
  }

  /**
   * The live views of every resource in force, in file order, then {@code system} if there is one.
   */
  public List<ResourceView> resources() {
    CompiledRules c = compiled;
    List<ResourceView> views = new ArrayList<>(c.resources.length + 1);
    Collections.addAll(views, c.resources);
    if (c.system != null) {
      views.add(c.system);
    }
    return Collections.unmodifiableList(views);
  }

  private Object decide(CompiledRules c, int i) {
    if (i < 0) {
      return null;
    }
    ResourceRuntime resource = c.resources[i];
    long now = resource.timed ? clock.nanoTime() : 0L;
    if (resource.timesCalls) {
      starts.decided(now);
    }
    Object decision = resource.decide(null, null, now);
    if (!(decision instanceof Blocked)) {
      resource.countAdmitted();
    }
    return decision;
  }
}
