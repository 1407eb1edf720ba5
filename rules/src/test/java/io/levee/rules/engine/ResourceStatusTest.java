package io.levee.rules.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResourceStatusTest {
  @Test
  void aRampOrDueProbeReadAfterATransitionIsNotPairedWithTheStateReadBeforeIt() {
    // The state was read just before the breaker moved on: a ramp or a due probe read after it
    // belongs to the next state.
    ResourceStatus halfOpenThenClosed = new ResourceStatus(view(2, 10, false));
    ResourceStatus closedThenOpenPastItsTime = new ResourceStatus(view(0, 0, true));

    assertThat(halfOpenThenClosed.breakerRamp).isZero();
    assertThat(closedThenOpenPastItsTime.probeDue).isFalse();
    assertThat(new ResourceStatus(view(0, 25, false)).breakerRamp).isEqualTo(25);
    assertThat(new ResourceStatus(view(1, 0, true)).probeDue).isTrue();
  }

  private static ResourceView view(int state, int ramp, boolean probeDue) {
    StubView view = new StubView(false);
    view.state = state;
    view.ramp = ramp;
    view.probeDue = probeDue;
    return view;
  }
}
