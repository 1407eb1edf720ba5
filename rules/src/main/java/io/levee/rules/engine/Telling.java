package io.levee.rules.engine;

/**
 * Who is told of each decision ({@link Engine#setDecisions}, for tracing), and the telling itself.
 *
 * <p>Concurrency: the listener is set by the agent's lifecycle and read by every decision; a
 * volatile read is the whole cost when nobody listens.
 */
final class Telling {
  private volatile Decisions decisions;

  void set(Decisions d) {
    decisions = d;
  }

  Decisions get() {
    return decisions;
  }

  /** Whether {@link #tell} has anyone to tell; one volatile read. */
  boolean on() {
    return decisions != null;
  }

  /**
   * Tells the listener, if any, of a decision. A listener that throws loses its word, never the
   * call: the permits taken must still come back.
   */
  void tell(String resource, String kind, String decision, String reason) {
    Decisions d = decisions;
    if (d == null) {
      return;
    }
    try {
      d.decided(resource, kind, decision, reason);
    } catch (Throwable ignored) {
      // Tracing is an extra; the decision stands without it.
    }
  }
}
