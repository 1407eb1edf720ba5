package io.levee.rules.model;

/** {@code timeouts:}; each 0 when not set. Applied only where the application left 0 (infinite). */
public final class TimeoutsSpec {
  public static final TimeoutsSpec NONE = new TimeoutsSpec(0, 0, 0);

  public final long connectNanos;
  public final long readNanos;
  public final long queryNanos;

  public TimeoutsSpec(long connectNanos, long readNanos, long queryNanos) {
    this.connectNanos = connectNanos;
    this.readNanos = readNanos;
    this.queryNanos = queryNanos;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof TimeoutsSpec)) {
      return false;
    }
    TimeoutsSpec t = (TimeoutsSpec) o;
    return connectNanos == t.connectNanos && readNanos == t.readNanos && queryNanos == t.queryNanos;
  }

  @Override
  public int hashCode() {
    return Values.hash(connectNanos, readNanos, queryNanos);
  }
}
