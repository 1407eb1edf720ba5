package io.levee.rules.policy.adaptive;

/**
 * What the last window of a {@link GradientCpuLimit} did, kept for its {@link
 * LimitAlgorithm#lastStep}: the regime that moved the limit, or the experiment that judged the
 * window instead, and what else bounded it.
 *
 * <p><b>Why a class of its own.</b> The words are read only when the limiter traces (the agent's
 * log at debug), while the algorithm writes these few facts every window; keeping them apart keeps
 * the algorithm's step about the limit and this about the sentence.
 *
 * <p><b>Cost.</b> A few field writes per window; a string only when {@link #words} is called.
 */
final class StepWords {
  /** The regime of the last steady window, or null for an experiment's. */
  private WindowReading.Regime regime;

  /** What the last window did besides, or instead of, its regime. */
  private String note;

  /** The last window's cut is checked in the next. */
  private boolean cutChecked;

  /** The threads the last window's limit was kept below; 0 when it was not. */
  private int cappedBelow;

  /** Forgets the last window's words: a new one begins. */
  void clear() {
    regime = null;
    note = null;
    cutChecked = false;
    cappedBelow = 0;
  }

  void regime(WindowReading.Regime regime) {
    this.regime = regime;
  }

  void note(String note) {
    this.note = note;
  }

  void cutChecked() {
    cutChecked = true;
  }

  void cappedBelow(int threads) {
    cappedBelow = threads;
  }

  /**
   * The sentence: the regime in {@code reading}'s words, then the note and what bounded the limit;
   * {@code dependencyNanos}, how long a slower dependency is still remembered, 0 when none is.
   */
  String words(WindowReading reading, long dependencyNanos) {
    StringBuilder b = new StringBuilder();
    if (regime != null) {
      b.append(reading.words(regime));
    }
    if (note != null) {
      b.append(b.length() == 0 ? "" : "; ").append(note);
    }
    if (cutChecked) {
      b.append("; checked once the calls before it complete");
    }
    if (cappedBelow > 0) {
      b.append("; kept below the ").append(cappedBelow).append(" threads that held the calls");
    }
    if (regime != null && dependencyNanos > 0) {
      b.append("; slower dependency remembered ");
      b.append(LimitTrace.format("%.1f", dependencyNanos / 1e9)).append(" s more");
    }
    return b.toString();
  }
}
