package io.levee.rules.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.Mode;
import org.junit.jupiter.api.Test;

/**
 * A view whose limit counts its calls in flight derives {@code passed} from that count and the
 * completed calls, and a counter read from it never goes down.
 */
class ResourceViewTest {
  /** What the view's limit holds now, set by the test. */
  private int limitHolds;

  private final ResourceView derived =
      new ResourceView("db", "jdbc", Mode.ENFORCE, true, false) {
        @Override
        int limitInFlight() {
          return limitHolds;
        }

        @Override
        public int limit() {
          return 10;
        }

        @Override
        public int breakerState() {
          return -1;
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
      };

  @Test
  void passedIsTheCompletedCallsPlusThoseTheLimitHolds() {
    limitHolds = 3;
    derived.countAdmitted();
    assertThat(derived.passed()).isEqualTo(3);
    assertThat(derived.inFlight()).isEqualTo(3);

    limitHolds = 1;
    derived.countCompleted(Outcome.SUCCESS, 0);
    derived.countCompleted(Outcome.FAILURE, 0);

    assertThat(derived.passed()).isEqualTo(3);
    assertThat(derived.inFlight()).isEqualTo(1);
  }

  @Test
  void aReadBetweenACallsReleaseAndItsCountKeepsTheHighestPassedSoFar() {
    limitHolds = 2;
    assertThat(derived.passed()).isEqualTo(2);

    // One call has freed its slot and is not counted as completed yet.
    limitHolds = 1;
    assertThat(derived.passed()).isEqualTo(2);

    derived.countCompleted(Outcome.SUCCESS, 0);
    limitHolds = 2;
    assertThat(derived.passed()).isEqualTo(3);
  }

  @Test
  void withoutDurationsTheDurationSumStaysZero() {
    derived.countCompleted(Outcome.SUCCESS, 7_000);

    assertThat(derived.durationSumNanos()).isZero();
    assertThat(derived.durationCount()).isEqualTo(1);
  }
}
