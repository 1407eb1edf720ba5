package io.levee.rules.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OpenBackoffTest {
  private static final long S = 1_000_000_000L;

  @Test
  void firstOpenLastsExactlyOpenFor() {
    assertThat(OpenBackoff.nanos(5 * S, 60 * S, 1, -1L)).isEqualTo(5 * S);
    assertThat(OpenBackoff.nanos(5 * S, 60 * S, 1, 0L)).isEqualTo(5 * S);
  }

  @Test
  void lowestJitterIsHalfTheDoubledBaseButNeverBelowOpenFor() {
    assertThat(OpenBackoff.nanos(5 * S, 60 * S, 2, 0L)).isEqualTo(5 * S);
    assertThat(OpenBackoff.nanos(5 * S, 60 * S, 3, 0L)).isEqualTo(10 * S);
    assertThat(OpenBackoff.nanos(5 * S, 60 * S, 4, 0L)).isEqualTo(20 * S);
    assertThat(OpenBackoff.nanos(5 * S, 60 * S, 30, 0L)).isEqualTo(30 * S);
  }

  @Test
  void highestJitterApproachesTheDoubledBaseAndTheCap() {
    assertThat(OpenBackoff.nanos(5 * S, 60 * S, 2, -1L)).isBetween(10 * S - 1, 10 * S);
    assertThat(OpenBackoff.nanos(5 * S, 60 * S, 5, -1L)).isBetween(60 * S - 1, 60 * S);
    assertThat(OpenBackoff.nanos(5 * S, 60 * S, Integer.MAX_VALUE, -1L))
        .isBetween(60 * S - 1, 60 * S);
  }

  @Test
  void aCapBelowOpenForLeavesOpenFor() {
    assertThat(OpenBackoff.nanos(5 * S, S, 3, -1L)).isEqualTo(5 * S);
  }
}
