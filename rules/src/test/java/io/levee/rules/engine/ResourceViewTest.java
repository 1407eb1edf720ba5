package io.levee.rules.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A view whose limit counts its calls in flight derives {@code passed} from that count and the
 * completed calls, and a counter read from it never goes down.
 */
class ResourceViewTest {
  private final StubView derived = new StubView(true);

  @Test
  void passedIsTheCompletedCallsPlusThoseTheLimitHolds() {
    derived.held = 3;
    derived.countAdmitted();
    assertThat(derived.passed()).isEqualTo(3);
    assertThat(derived.inFlight()).isEqualTo(3);

    derived.held = 1;
    derived.countCompleted(Outcome.SUCCESS, 0);
    derived.countCompleted(Outcome.FAILURE, 0);

    assertThat(derived.passed()).isEqualTo(3);
    assertThat(derived.inFlight()).isEqualTo(1);
  }

  @Test
  void aReadBetweenACallsReleaseAndItsCountKeepsTheHighestPassedSoFar() {
    derived.held = 2;
    assertThat(derived.passed()).isEqualTo(2);

    // One call has freed its slot and is not counted as completed yet.
    derived.held = 1;
    assertThat(derived.passed()).isEqualTo(2);

    derived.countCompleted(Outcome.SUCCESS, 0);
    derived.held = 2;
    assertThat(derived.passed()).isEqualTo(3);
  }

  @Test
  void withoutDurationsTheDurationSumStaysZero() {
    derived.countCompleted(Outcome.SUCCESS, 7_000);

    assertThat(derived.durationSumNanos()).isZero();
    assertThat(derived.durationCount()).isEqualTo(1);
  }
}
