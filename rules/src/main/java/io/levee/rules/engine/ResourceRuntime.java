package io.levee.rules.engine;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Faults;
import io.levee.bootstrap.http.HttpAnswer;
import io.levee.rules.lastgood.LastGoodCache;
import io.levee.rules.model.CallKind;
import io.levee.rules.model.Mode;
import io.levee.rules.model.OnBlock;
import io.levee.rules.model.Priority;
import io.levee.rules.model.RateLimitSpec;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.policy.CircuitBreaker;
import io.levee.rules.policy.ConcurrencyLimit;
import io.levee.rules.policy.KeyedBuckets;
import io.levee.rules.policy.RateBucket;
import io.levee.rules.policy.adaptive.AdaptiveLimiter;
import io.levee.rules.policy.adaptive.CpuSource;
import io.levee.rules.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One resource in force: its policies, built from its rule, checked in SPEC order (breaker, rate
 * limit, concurrency, adaptive), and its counters. Survives a reload that leaves its rule (and the
 * key cap) unchanged, state and all.
 *
 * <p>A call is admitted only if every policy admits it; a policy that rejects gives back what the
 * earlier ones took (a half-open probe, a concurrency slot), so nothing leaks. In monitor mode
 * every policy still decides and takes its permit, so in-flight counts stay true, but a "no" is
 * only counted and the call goes on; nothing waits. A call the breaker refused carries {@link
 * #unprobedPermit}, so its outcome is never taken for a half-open probe.
 *
 * <p>Concurrency: all fields are final; the policies are thread-safe themselves.
 */
final class ResourceRuntime extends ResourceView {
  private static final AtomicInteger IDS = new AtomicInteger();

  final ResourceRule rule;

  /**
   * Unique among every resource state this class loader makes, across reloads: what {@link
   * io.levee.bootstrap.method.OpenMethods} keeps of a method resource with a call open.
   */
  final int id = IDS.incrementAndGet();

  final int maxKeys;

  /** The rule's priority, read where the system limit decides. */
  final Priority priority;

  final EnginePermit permit;

  /** The permit of a call the breaker refused that runs anyway (monitor mode). */
  final EnginePermit unprobedPermit;

  /**
   * Whether a call needs its start and end: the breaker (its window, slow calls, which calls count
   * in a state), the adaptive limit (round trips) or the engine's durations.
   */
  final boolean timesCalls;

  /** Whether the decision reads the time: a policy decides by it, or the call is timed. */
  final boolean timed;

  /**
   * The last good answers of an http resource with {@code fallback.last-good} in enforce mode (in
   * monitor mode nothing is blocked, so nothing would ever be answered from it); else null.
   */
  final LastGoodCache lastGood;

  private final boolean monitor;
  private final Sleeper sleeper;
  private final CallStarts starts;
  private final CircuitBreaker breaker;
  private final RateBucket bucket;
  private final KeyedBuckets keyed;
  private final ConcurrencyLimit concurrency;
  private final long concurrencyWaitNanos;
  private final AdaptiveLimiter adaptive;
  private final long slowCallNanos;
  private final FailureClassifier failures;
  private final BlockAnswers answers;
  private final Telling telling;

  ResourceRuntime(
      ResourceRule rule, int maxKeys, Clock clock, CpuSource cpu, Sleeper sleeper, Engine engine) {
    super(
        rule.name,
        rule.match.kind.key,
        rule.mode,
        rule.concurrency != null || rule.adaptive != null,
        engine.durations);
    this.rule = rule;
    this.maxKeys = maxKeys;
    this.priority = rule.priority;
    this.monitor = rule.mode == Mode.MONITOR;
    this.sleeper = sleeper;
    this.starts = engine.starts;
    this.telling = engine.telling;
    this.breaker =
        rule.circuitBreaker == null ? null : new CircuitBreaker(rule.circuitBreaker, clock);
    if (breaker != null) {
      breaker.setListener(engine.listeners.breakerListener(rule.name, monitor));
    }
    RateLimitSpec rate = rule.rateLimit;
    boolean perKey = rate != null && rate.per != null && rule.match.kind == CallKind.SERVLET;
    KeyedBuckets.Factory buckets =
        rate != null && rate.cluster
            ? ClusterBuckets.factory(clock)
            : KeyedBuckets.tokenBuckets(clock);
    this.keyed = perKey ? new KeyedBuckets(rate, maxKeys, clock, buckets) : null;
    this.bucket = rate != null && !perKey ? buckets.create(rate, clock.nanoTime()) : null;
    this.concurrency = rule.concurrency == null ? null : new ConcurrencyLimit(rule.concurrency);
    this.concurrencyWaitNanos = rule.concurrency == null ? 0 : rule.concurrency.maxWaitNanos;
    this.adaptive =
        rule.adaptive == null ? null : AdaptiveLimiter.createForOneClass(rule.adaptive, clock, cpu);
    if (adaptive != null) {
      adaptive.setTrace(engine.listeners.limitTrace(rule.name));
    }
    this.slowCallNanos = rule.circuitBreaker == null ? 0 : rule.circuitBreaker.slowCallNanos;
    this.failures = new FailureClassifier(rule.failure);
    this.answers = new BlockAnswers(rule.name, rule.match.kind, rule.onBlock);
    OnBlock.Fallback fallback = rule.onBlock.fallback;
    this.lastGood =
        rule.match.kind == CallKind.HTTP
                && !monitor
                && fallback != null
                && fallback.lastGood != null
            ? new LastGoodCache(fallback.lastGood, clock)
            : null;
    this.timesCalls = breaker != null || adaptive != null || engine.durations;
    this.timed = timesCalls || bucket != null || keyed != null;
    this.permit = new EnginePermit(this, null, true);
    this.unprobedPermit = new EnginePermit(this, null, false);
  }

  /** Whether this runtime can carry on under {@code next} (with key cap {@code nextMaxKeys}). */
  boolean sameAs(ResourceRule next, int nextMaxKeys) {
    return rule.equals(next) && (keyed == null || maxKeys == nextMaxKeys);
  }

  /**
   * When admitted, {@link #permit} or {@link #unprobedPermit} (permits taken); otherwise the {@link
   * Blocked} answer, with nothing left taken. {@code now}: the clock read once for this decision
   * (any value when not {@link #timed}). A policy that waits tells {@link CallStarts}, as the call
   * then starts after the wait.
   */
  Object decide(Object request, KeySource keys, long now) {
    Faults.at(Faults.DECIDE);
    // The admitted path stays small enough for HotSpot to inline it into the engine's decide
    // methods (hot methods up to 325 bytes of bytecode); monitor mode and refusals are out of line.
    if (monitor) {
      return decideMonitored(request, keys, now);
    }
    // Read before any permit is taken: a key source that throws must leave nothing held.
    String key = keyed == null ? null : key(request, keys);
    if (breaker != null) {
      long wait = breaker.tryAcquire(now);
      if (wait > 0) {
        return block(Reason.CIRCUIT_OPEN, wait);
      }
    }
    if (bucket != null || keyed != null) {
      long r = (keyed == null ? bucket : keyed.bucket(key, now)).tryAcquire(now);
      if (r != 0 && !paced(r, now)) {
        return block(Reason.RATE_LIMIT, -r);
      }
    }
    if (concurrency != null && !concurrency.tryAcquire() && !waitedForSlot(now)) {
      return block(Reason.CONCURRENCY, 0);
    }
    if (adaptive != null && !adaptive.tryAcquire(now)) {
      if (concurrency != null) {
        concurrency.release();
      }
      giveBackProbe(now);
      return block(Reason.ADAPTIVE, 0);
    }
    if (telling.on()) {
      telling.tell(name(), kind(), Decisions.ADMITTED, null);
    }
    return permit;
  }

  /** Monitor mode, as the class comment says: every policy decides, a "no" is only counted. */
  private Object decideMonitored(Object request, KeySource keys, long now) {
    String key = keyed == null ? null : key(request, keys);
    boolean probeTaken = false;
    // The first policy that would have refused the call, for tracing.
    Reason would = null;
    if (breaker != null) {
      if (breaker.tryAcquire(now) > 0) {
        would = wouldBlock(would, Reason.CIRCUIT_OPEN);
      } else {
        probeTaken = true;
      }
    }
    if ((bucket != null || keyed != null)
        && (keyed == null ? bucket : keyed.bucket(key, now)).tryAcquire(now) < 0) {
      would = wouldBlock(would, Reason.RATE_LIMIT);
    }
    if (concurrency != null && !concurrency.acquireUnconditionally()) {
      would = wouldBlock(would, Reason.CONCURRENCY);
    }
    if (adaptive != null && !adaptive.acquireUnconditionally()) {
      would = wouldBlock(would, Reason.ADAPTIVE);
    }
    if (telling.on()) {
      telling.tell(
          name(),
          kind(),
          would == null ? Decisions.ADMITTED : Decisions.WOULD_BLOCK,
          would == null ? null : would.key);
    }
    return breaker == null || probeTaken ? permit : unprobedPermit;
  }

  /** Counts a call monitor mode lets through although {@code reason} would have refused it. */
  private Reason wouldBlock(Reason first, Reason reason) {
    countBlocked(reason, true);
    return first == null ? reason : first;
  }

  /**
   * A rate limit's answer other than "now" ({@code r}, from {@link RateBucket#tryAcquire}): true
   * when the call was paced (it slept, and starts after the wait), false when it is refused, with
   * the breaker's probe given back.
   */
  private boolean paced(long r, long now) {
    if (r < 0) {
      giveBackProbe(now);
      return false;
    }
    sleeper.sleepKeepingInterrupt(r);
    starts.restarted();
    return true;
  }

  /**
   * No concurrency slot was free: waits up to {@code max-wait} for one (the call then starts after
   * the wait); false on timeout, with the breaker's probe given back.
   */
  private boolean waitedForSlot(long now) {
    if (concurrency.acquire(concurrencyWaitNanos)) {
      starts.restarted();
      return true;
    }
    giveBackProbe(now);
    return false;
  }

  /**
   * What a blocked http call gets: a {@code GET} with a fallback, the last good answer of its URL
   * when there is one; otherwise {@code blocked} as it is. Counts the fallbacks.
   */
  Blocked answer(String method, String url, Blocked blocked) {
    if (!blocked.fallback) {
      return blocked;
    }
    if (lastGood != null && "GET".equals(method)) {
      HttpAnswer kept = lastGood.answer(url);
      if (kept != null) {
        countFallback(true);
        return blocked.withLastGood(kept);
      }
    }
    countFallback(false);
    return blocked;
  }

  /** Counts a call the system rule blocked (or would have) before this resource decided. */
  void countSystemBlock(boolean monitor) {
    countBlocked(Reason.SYSTEM, monitor);
  }

  /**
   * Classifies the outcome of a call that ended at {@code now}, tells the breaker and the adaptive
   * limit, and frees the permits. {@code now} and {@code durationNanos} are 0 when not {@link
   * #timesCalls} (and the system rule did not take the call).
   */
  Outcome complete(
      long now, long durationNanos, int status, Throwable error, boolean breakerAdmitted) {
    Outcome outcome;
    RuntimeException unclassified = null;
    try {
      Faults.at(Faults.COMPLETE);
      outcome = failures.classify(status, error);
    } catch (RuntimeException e) {
      // The permits go back all the same, without a sample; the error is reported after.
      outcome = Outcome.IGNORED;
      unclassified = e;
    }
    if (outcome == Outcome.IGNORED) {
      if (breaker != null && breakerAdmitted) {
        breaker.releasePermission(now - durationNanos);
      }
      if (adaptive != null) {
        adaptive.releaseWithoutSample();
      }
    } else {
      boolean failure = outcome == Outcome.FAILURE;
      if (breaker != null) {
        breaker.onComplete(now, durationNanos, failure, breakerAdmitted);
      }
      if (adaptive != null) {
        adaptive.release(now, durationNanos, failure);
      }
      if (!failure && slowCallNanos > 0 && durationNanos > slowCallNanos) {
        outcome = Outcome.SLOW;
      }
    }
    if (concurrency != null) {
      concurrency.release();
    }
    countCompleted(outcome, durationNanos);
    if (unclassified != null) {
      throw unclassified;
    }
    return outcome;
  }

  @Override
  int limitInFlight() {
    return concurrency != null ? concurrency.inFlight() : adaptive.inFlight();
  }

  @Override
  public int limit() {
    if (adaptive != null) {
      return concurrency == null
          ? adaptive.limit()
          : Math.min(adaptive.limit(), concurrency.limit());
    }
    return concurrency == null ? -1 : concurrency.limit();
  }

  @Override
  public int breakerState() {
    return breaker == null ? -1 : breaker.state();
  }

  @Override
  public int breakerRamp() {
    return breaker == null ? 0 : breaker.rampPercent();
  }

  @Override
  public boolean breakerProbeDue() {
    return breaker != null && breaker.probeDue();
  }

  @Override
  public long keysEvicted() {
    return keyed == null ? 0 : keyed.evictions();
  }

  @Override
  public boolean clusterScoped() {
    return rule.rateLimit != null && rule.rateLimit.cluster;
  }

  @Override
  public int clusterInstances() {
    return clusterScoped() ? ClusterBuckets.instances(name(), bucket, keyed) : -1;
  }

  /** Shows {@code visitor} this resource's cluster-scoped buckets; none when it is local. */
  void forEachClusterBucket(ClusterVisitor visitor) {
    if (clusterScoped()) {
      ClusterBuckets.forEach(name(), bucket, keyed, visitor);
    }
  }

  @Override
  BlockAnswers answers() {
    return answers;
  }

  @Override
  public int lastGoodKept() {
    return lastGood == null ? 0 : lastGood.size();
  }

  private Blocked block(Reason reason, long waitNanos) {
    countBlocked(reason, false);
    telling.tell(name(), kind(), Decisions.BLOCKED, reason.key);
    return answers.answer(reason, waitNanos);
  }

  /** Gives back what an admitting breaker took: a half-open probe, if this call held one. */
  private void giveBackProbe(long now) {
    if (breaker != null) {
      breaker.releasePermission(now);
    }
  }

  private String key(Object request, KeySource keys) {
    return keys == null || request == null ? null : keys.key(request, rule.rateLimit.per);
  }
}
