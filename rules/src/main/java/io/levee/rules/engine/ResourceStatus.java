package io.levee.rules.engine;

import io.levee.rules.model.Mode;
import io.levee.rules.policy.CircuitBreaker;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/** A snapshot of one resource's {@link ResourceView}, for {@code status} and {@code /status}. */
public final class ResourceStatus {
  public final String name;
  public final String kind;
  public final Mode mode;

  /** 0 closed, 1 open, 2 half-open, -1 without a circuit breaker. */
  public final int breakerState;

  /** Closed and ramping calls back up: the percentage admitted now (10, 25, 50); else 0. */
  public final int breakerRamp;

  /** Open past its open time, so the next call will probe; false in any other state. */
  public final boolean probeDue;

  /** -1 without a concurrency or adaptive limit. */
  public final int limit;

  public final int inFlight;
  public final long passed;

  /** Enforce mode: calls blocked, by reason; every reason present. */
  public final Map<Reason, Long> blocked;

  /** Monitor mode: calls that would have been blocked, by reason; every reason present. */
  public final Map<Reason, Long> wouldBlock;

  /** Completed calls by outcome; every outcome present. */
  public final Map<Outcome, Long> calls;

  public final long durationSumNanos;
  public final long keysEvicted;

  /** {@code cluster} for a rate limit the cluster shares, else {@code local}. */
  public final String scope;

  /** Cluster scope: the instances last counted (0 before the first settling); else -1. */
  public final int instances;

  ResourceStatus(ResourceView view) {
    this.name = view.name();
    this.kind = view.kind();
    this.mode = view.mode();
    this.breakerState = view.breakerState();
    // Read apart from the state: a transition in between must not pair one with the wrong state.
    this.breakerRamp = breakerState == CircuitBreaker.CLOSED ? view.breakerRamp() : 0;
    this.probeDue = breakerState == CircuitBreaker.OPEN && view.breakerProbeDue();
    this.limit = view.limit();
    this.inFlight = view.inFlight();
    this.passed = view.passed();
    EnumMap<Reason, Long> blocked = new EnumMap<>(Reason.class);
    EnumMap<Reason, Long> wouldBlock = new EnumMap<>(Reason.class);
    for (Reason r : Reason.ALL) {
      blocked.put(r, view.blocked(r));
      wouldBlock.put(r, view.wouldBlock(r));
    }
    EnumMap<Outcome, Long> calls = new EnumMap<>(Outcome.class);
    for (Outcome o : Outcome.ALL) {
      calls.put(o, view.calls(o));
    }
    this.blocked = Collections.unmodifiableMap(blocked);
    this.wouldBlock = Collections.unmodifiableMap(wouldBlock);
    this.calls = Collections.unmodifiableMap(calls);
    this.durationSumNanos = view.durationSumNanos();
    this.keysEvicted = view.keysEvicted();
    this.scope = view.clusterScoped() ? "cluster" : "local";
    this.instances = view.clusterInstances();
  }

  /**
   * Calls this resource decided on since its rule took effect, let through or refused: 0 says that
   * no call matched it, the commonest mistake with a rules file.
   */
  public long matched() {
    long n = passed;
    for (Long blockedCalls : blocked.values()) {
      n += blockedCalls;
    }
    return n;
  }

  /** Calls counted in {@link #durationSumNanos}: every completed call not ignored. */
  public long durationCount() {
    return calls.get(Outcome.SUCCESS) + calls.get(Outcome.FAILURE) + calls.get(Outcome.SLOW);
  }

  @Override
  public String toString() {
    return name
        + " ("
        + kind
        + ", "
        + mode.name().toLowerCase()
        + "): passed "
        + passed
        + ", blocked "
        + blocked
        + ", would block "
        + wouldBlock
        + ", in flight "
        + inFlight
        + ", limit "
        + limit
        + ", breaker "
        + breakerState
        + (breakerRamp > 0 ? " ramping " + breakerRamp + "%" : "")
        + (probeDue ? " probe due" : "");
  }
}
