package io.levee.rules.model;

/**
 * One entry of {@code resources:}. Policies that the file does not name are null. Implements {@code
 * equals} by value so a reload can tell which resources did not change and keep their state.
 */
public final class ResourceRule {
  public final String name;

  /** The resource's own mode, already resolved against {@code settings.mode}. */
  public final Mode mode;

  public final Match match;
  public final CircuitBreakerSpec circuitBreaker;
  public final RateLimitSpec rateLimit;
  public final ConcurrencySpec concurrency;
  public final AdaptiveSpec adaptive;

  /** Never null: the defaults when the file has no {@code failure:}. */
  public final FailureSpec failure;

  /** Never null: all zero when the file has no {@code timeouts:}. */
  public final TimeoutsSpec timeouts;

  /** Never null: the defaults when the file has no {@code on-block:}. */
  public final OnBlock onBlock;

  /** Never null: {@link Priority#NORMAL} unless a servlet resource says otherwise. */
  public final Priority priority;

  /**
   * servlet only: {@code backpressure} as written, or null when not written (then {@code system}'s
   * applies to a request the system rule governs).
   */
  public final Boolean backpressure;

  public ResourceRule(
      String name,
      Mode mode,
      Match match,
      CircuitBreakerSpec circuitBreaker,
      RateLimitSpec rateLimit,
      ConcurrencySpec concurrency,
      AdaptiveSpec adaptive,
      FailureSpec failure,
      TimeoutsSpec timeouts,
      OnBlock onBlock) {
    this(
        name,
        mode,
        match,
        circuitBreaker,
        rateLimit,
        concurrency,
        adaptive,
        failure,
        timeouts,
        onBlock,
        Priority.NORMAL,
        null);
  }

  public ResourceRule(
      String name,
      Mode mode,
      Match match,
      CircuitBreakerSpec circuitBreaker,
      RateLimitSpec rateLimit,
      ConcurrencySpec concurrency,
      AdaptiveSpec adaptive,
      FailureSpec failure,
      TimeoutsSpec timeouts,
      OnBlock onBlock,
      Priority priority,
      Boolean backpressure) {
    this.name = name;
    this.mode = mode;
    this.match = match;
    this.circuitBreaker = circuitBreaker;
    this.rateLimit = rateLimit;
    this.concurrency = concurrency;
    this.adaptive = adaptive;
    this.failure = failure;
    this.timeouts = timeouts;
    this.onBlock = onBlock;
    this.priority = priority;
    this.backpressure = backpressure;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof ResourceRule)) {
      return false;
    }
    ResourceRule r = (ResourceRule) o;
    return name.equals(r.name)
        && mode == r.mode
        && match.equals(r.match)
        && Values.eq(circuitBreaker, r.circuitBreaker)
        && Values.eq(rateLimit, r.rateLimit)
        && Values.eq(concurrency, r.concurrency)
        && Values.eq(adaptive, r.adaptive)
        && failure.equals(r.failure)
        && timeouts.equals(r.timeouts)
        && onBlock.equals(r.onBlock)
        && priority == r.priority
        && Values.eq(backpressure, r.backpressure);
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + match.hashCode();
  }

  @Override
  public String toString() {
    return "resource '" + name + "' (" + match.kind.key + ")";
  }
}
