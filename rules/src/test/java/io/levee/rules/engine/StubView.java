package io.levee.rules.engine;

import io.levee.rules.model.Mode;

/** A view with no policies behind it, whose gauges the test sets. */
final class StubView extends ResourceView {
  /** What {@link #limitInFlight} answers: the calls the view's limit holds now. */
  int held;

  int state = -1;
  int ramp;
  boolean probeDue;

  /** {@code passedDerived}: passed is completed plus {@link #held}, as for a view with a limit. */
  StubView(boolean passedDerived) {
    super("partner", "http", Mode.ENFORCE, passedDerived, false);
  }

  @Override
  int limitInFlight() {
    return held;
  }

  @Override
  public int limit() {
    return -1;
  }

  @Override
  public int breakerState() {
    return state;
  }

  @Override
  public int breakerRamp() {
    return ramp;
  }

  @Override
  public boolean breakerProbeDue() {
    return probeDue;
  }

  @Override
  public long keysEvicted() {
    return 0;
  }

  @Override
  BlockAnswers answers() {
    return null;
  }

  @Override
  public int lastGoodKept() {
    return 0;
  }
}
