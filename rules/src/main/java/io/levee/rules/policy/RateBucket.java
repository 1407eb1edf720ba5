package io.levee.rules.policy;

/** A rate limit's decision for one call: a {@link TokenBucket}, or a share of a cluster's. */
public interface RateBucket {
  /**
   * Takes a token at {@code now}. {@code >= 0}: admitted after sleeping that many nanos (0: at
   * once). {@code < 0}: rejected, nothing consumed, and {@code -result >= 1} nanos until a token
   * would be there.
   */
  long tryAcquire(long now);

  /** A bucket that admits every call: a key of an {@code unlimited} tier. */
  RateBucket UNLIMITED =
      new RateBucket() {
        @Override
        public long tryAcquire(long now) {
          return 0;
        }
      };
}
