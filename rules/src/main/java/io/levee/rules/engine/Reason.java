package io.levee.rules.engine;

import io.levee.rules.model.Defaults;

/** Why a call was (or, in monitor mode, would have been) blocked: the {@code reason} tag. */
public enum Reason {
  CIRCUIT_OPEN("circuit-open", Defaults.STATUS_CIRCUIT_OPEN),
  RATE_LIMIT("rate-limit", Defaults.STATUS_RATE_LIMIT),
  CONCURRENCY("concurrency", Defaults.STATUS_CONCURRENCY),
  ADAPTIVE("adaptive", Defaults.STATUS_ADAPTIVE),
  SYSTEM("system", Defaults.STATUS_SYSTEM);

  static final Reason[] ALL = values();

  /** The word metrics, status and messages use. */
  public final String key;

  /** The servlet status when {@code on-block.status} is not set. */
  public final int defaultStatus;

  Reason(String key, int defaultStatus) {
    this.key = key;
    this.defaultStatus = defaultStatus;
  }

  /** Whether {@code Retry-After: auto} can say when a call would pass (a token, a probe). */
  boolean knowsWhenToRetry() {
    return this == CIRCUIT_OPEN || this == RATE_LIMIT;
  }
}
