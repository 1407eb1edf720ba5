package io.levee.rules.engine;

import io.levee.bootstrap.Blocked;
import io.levee.rules.model.CallKind;
import io.levee.rules.model.FailureSpec;
import io.levee.rules.model.Mode;
import io.levee.rules.model.Priority;
import io.levee.rules.model.SystemRule;
import io.levee.rules.policy.adaptive.AdaptiveLimiter;
import io.levee.rules.policy.adaptive.CpuSource;
import io.levee.rules.time.Clock;

/**
 * The {@code system:} rule in force: one adaptive limit over every inbound request whose path is
 * not excluded, reported as the resource {@code system}, which ranks requests by the priority of
 * the resource they matched. Survives a reload that leaves the rule unchanged; the permits carry
 * the priority they were taken with, so those of a resource whose priority a reload changed still
 * come back to the right count.
 *
 * <p>Concurrency: all fields are final; the limiter is thread-safe.
 */
final class SystemRuntime extends ResourceView {
  static final String NAME = "system";

  final SystemRule rule;

  /** Per class: the permit of a request that no resource tracks. */
  private final EnginePermit[] permits = new EnginePermit[AdaptiveLimiter.CLASSES];

  private final boolean monitor;
  private final AdaptiveLimiter limiter;
  private final FailureClassifier failures = new FailureClassifier(FailureSpec.DEFAULT);
  private final BlockAnswers answers;

  SystemRuntime(SystemRule rule, Clock clock, CpuSource cpu, Engine engine) {
    super(NAME, CallKind.SERVLET.key, rule.mode, true, engine.durations);
    this.rule = rule;
    this.monitor = rule.mode == Mode.MONITOR;
    this.limiter = AdaptiveLimiter.create(rule.adaptive, clock, cpu);
    limiter.setTrace(engine.listeners.limitTrace(NAME));
    this.answers = new BlockAnswers(NAME, CallKind.SERVLET, rule.onBlock);
    for (int cls = 0; cls < permits.length; cls++) {
      permits[cls] = new EnginePermit(null, this, true, cls);
    }
  }

  /** The permit of a request of class {@code cls} that no resource tracks. */
  EnginePermit permit(int cls) {
    return permits[cls];
  }

  /** SystemRule has no value equality of its own; these are all its fields. */
  boolean sameAs(SystemRule next) {
    return next != null
        && rule.exclude.equals(next.exclude)
        && rule.adaptive.equals(next.adaptive)
        && rule.mode == next.mode
        && rule.onBlock.equals(next.onBlock)
        && rule.backpressure == next.backpressure;
  }

  /**
   * Null when the system permit was taken; otherwise the answer. {@code resource}, the resource the
   * call matched or null, counts the block as well; {@code cls} is the request's class ({@link
   * RequestClasses}) and {@code priority} its resource's, which decide how far into a full limit it
   * may go. {@code now}: the clock read for this decision; {@code asks}: how often this thread has
   * asked in the limit's {@link #window()}, this time included. {@code engine}'s {@link Decisions}
   * are told of a refusal (in monitor mode, of what would have been one) always, and of an
   * admission only for a request no resource tracks: a resource tells its own.
   */
  Blocked decide(
      ResourceRuntime resource, int cls, Priority priority, long now, int asks, Engine engine) {
    limiter.threadAsked(asks);
    boolean within =
        monitor
            ? limiter.acquireUnconditionally(now, cls, priority)
            : limiter.tryAcquire(now, cls, priority);
    if (within) {
      if (resource == null) {
        engine.telling.tell(NAME, CallKind.SERVLET.key, Decisions.ADMITTED, null);
      }
      return null;
    }
    countBlocked(Reason.SYSTEM, monitor);
    if (resource != null) {
      resource.countSystemBlock(monitor);
    }
    engine.telling.tell(
        NAME,
        CallKind.SERVLET.key,
        monitor ? Decisions.WOULD_BLOCK : Decisions.BLOCKED,
        Reason.SYSTEM.key);
    return monitor ? null : answers.answer(Reason.SYSTEM, 0);
  }

  /** The limit's window now open, which a thread keeps to tell whether it is new to it. */
  int window() {
    return limiter.window();
  }

  /**
   * Gives the permit back unused: a resource policy blocked the call after the system admitted it.
   */
  void giveBack(int cls, Priority priority) {
    limiter.releaseWithoutSample(cls, priority);
  }

  /**
   * Frees the permit of a call that ended at {@code now}. {@code outcome} is the resource's
   * classification, or null for a call no resource tracked (then the default {@code failure:}
   * applies); {@code cls} and {@code priority} those the permit was taken with.
   */
  void complete(
      long now,
      long durationNanos,
      int status,
      Throwable error,
      Outcome outcome,
      int cls,
      Priority priority) {
    Outcome o = outcome != null ? outcome : failures.classify(status, error);
    if (o == Outcome.IGNORED) {
      limiter.releaseWithoutSample(cls, priority);
    } else {
      limiter.release(now, durationNanos, o == Outcome.FAILURE, cls, priority);
    }
    countCompleted(o, durationNanos);
  }

  @Override
  public int limit() {
    return limiter.limit();
  }

  /** Permits the limiter holds, critical ones included: what its priority bands decide by. */
  @Override
  int limitInFlight() {
    return limiter.inFlight();
  }

  int criticalInFlight() {
    return limiter.criticalInFlight();
  }

  @Override
  public int breakerState() {
    return -1;
  }

  @Override
  public long keysEvicted() {
    return 0;
  }

  @Override
  BlockAnswers answers() {
    return answers;
  }

  @Override
  public int lastGoodKept() {
    return 0;
  }
}
