package io.levee.rules.model;

/** {@code concurrency:}: at most {@code max} calls in flight, waiting up to {@code maxWait}. */
public final class ConcurrencySpec {
  public final int max;
  public final long maxWaitNanos;

  public ConcurrencySpec(int max, long maxWaitNanos) {
    this.max = max;
    this.maxWaitNanos = maxWaitNanos;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ConcurrencySpec
        && ((ConcurrencySpec) o).max == max
        && ((ConcurrencySpec) o).maxWaitNanos == maxWaitNanos;
  }

  @Override
  public int hashCode() {
    return max * 31 + Long.hashCode(maxWaitNanos);
  }
}
