package io.levee.rules.model;

/**
 * {@code on-block.fallback.last-good} of an http resource (SPEC §5.1): while the resource blocks, a
 * {@code GET} is answered with the last 2xx answer of the same URL seen within {@link #ageNanos},
 * from a cache of at most {@link #maxEntries} answers of at most {@link #maxBody} bytes each.
 */
public final class LastGoodSpec {
  /** How old a kept answer may be and still be served. */
  public final long ageNanos;

  /** Bodies longer than this many bytes are not kept. */
  public final int maxBody;

  /** How many answers (one per URL) are kept; the least recently used goes first. */
  public final int maxEntries;

  public LastGoodSpec(long ageNanos, int maxBody, int maxEntries) {
    this.ageNanos = ageNanos;
    this.maxBody = maxBody;
    this.maxEntries = maxEntries;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LastGoodSpec)) {
      return false;
    }
    LastGoodSpec s = (LastGoodSpec) o;
    return ageNanos == s.ageNanos && maxBody == s.maxBody && maxEntries == s.maxEntries;
  }

  @Override
  public int hashCode() {
    return Values.hash(ageNanos, maxBody, maxEntries);
  }

  @Override
  public String toString() {
    return "last-good " + ageNanos + "ns, max-body " + maxBody + ", max-entries " + maxEntries;
  }
}
