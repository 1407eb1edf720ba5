package io.levee.rules.engine;

import io.levee.bootstrap.Blocked;
import io.levee.rules.model.CallKind;
import io.levee.rules.model.FailureSpec;
import io.levee.rules.model.Mode;
import io.levee.rules.model.SystemRule;
import io.levee.rules.policy.adaptive.AdaptiveLimiter;
import io.levee.rules.policy.adaptive.CpuSource;
import io.levee.rules.time.Clock;

/**
 * The {@code system:} rule in force: one adaptive limit over every inbound request whose path is
 * not excluded, reported as the resource {@code system}. Survives a reload that leaves the rule
 * unchanged.
 *
 * <p>Concurrency: all fields are final; the limiter is thread-safe.
 */
final class SystemRuntime extends ResourceView {
  static final String NAME = "system";

  final SystemRule rule;
  final EnginePermit permit;
  private final boolean monitor;
  private final AdaptiveLimiter limiter;
  private final FailureClassifier failures = new FailureClassifier(FailureSpec.DEFAULT);
  private final BlockAnswers answers;

  SystemRuntime(SystemRule rule, Clock clock, CpuSource cpu) {
    super(NAME, CallKind.SERVLET.key, rule.mode);
    this.rule = rule;
    this.monitor = rule.mode == Mode.MONITOR;
    this.limiter = AdaptiveLimiter.create(rule.adaptive, clock, cpu);
    this.answers = new BlockAnswers(NAME, CallKind.SERVLET, rule.onBlock);
    this.permit = new EnginePermit(null, this);
  }

  /** SystemRule has no value equality of its own; these are all its fields. */
  boolean sameAs(SystemRule next) {
    return next != null
        && rule.exclude.equals(next.exclude)
        && rule.adaptive.equals(next.adaptive)
        && rule.mode == next.mode
        && rule.onBlock.equals(next.onBlock);
  }

  /**
   * Null when the system permit was taken; otherwise the answer. {@code resource}, the resource the
   * call matched or null, counts the block as well. {@code now}: the clock read for this decision.
   */
  Blocked decide(ResourceRuntime resource, long now) {
    boolean within = monitor ? limiter.acquireUnconditionally() : limiter.tryAcquire(now);
    if (within) {
      return null;
    }
    countBlocked(Reason.SYSTEM, monitor);
    if (resource != null) {
      resource.countSystemBlock(monitor);
    }
    return monitor ? null : answers.answer(Reason.SYSTEM, 0);
  }

  /** Gives the permit back unused: a resource policy blocked the call after the system admitted it. */
  void giveBack() {
    limiter.releaseWithoutSample();
  }

  /**
   * Frees the permit of a call that ended at {@code now}. {@code outcome} is the resource's
   * classification, or null for a call no resource tracked (then the default {@code failure:}
   * applies).
   */
  void complete(long now, long durationNanos, int status, Throwable error, Outcome outcome) {
    Outcome o = outcome != null ? outcome : failures.classify(status, error);
    if (o == Outcome.IGNORED) {
      limiter.releaseWithoutSample();
    } else {
      limiter.release(now, durationNanos, o == Outcome.FAILURE);
    }
    countCompleted(o, durationNanos);
  }

  @Override
  public int limit() {
    return limiter.limit();
  }

  @Override
  public int breakerState() {
    return -1;
  }

  @Override
  public long keysEvicted() {
    return 0;
  }
}
