package io.levee.load.gen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RetriesTest {
  @Test
  void attemptsCountTheFirstOne() {
    assertThat(Retries.NONE.again(0)).isFalse();
    assertThat(Retries.ONCE.again(0)).isTrue();
    assertThat(Retries.ONCE.again(1)).isFalse();
    assertThat(Retries.AGGRESSIVE.again(1)).isTrue();
    assertThat(Retries.AGGRESSIVE.again(2)).isFalse();
  }

  @Test
  void delaysAreDrawnFromTheirRange() {
    long onceMax = 0;
    long backoffFirstMax = 0;
    long backoffSecondMax = 0;
    for (int i = 0; i < 10_000; i++) {
      onceMax = Math.max(onceMax, Retries.ONCE.delayNanos(1));
      backoffFirstMax = Math.max(backoffFirstMax, Retries.BACKOFF.delayNanos(1));
      backoffSecondMax = Math.max(backoffSecondMax, Retries.BACKOFF.delayNanos(2));
      assertThat(Retries.AGGRESSIVE.delayNanos(1)).isZero();
    }
    assertThat(onceMax).isLessThan(50_000_000L).isGreaterThan(45_000_000L);
    assertThat(backoffFirstMax).isLessThan(100_000_000L).isGreaterThan(90_000_000L);
    assertThat(backoffSecondMax).isLessThan(200_000_000L).isGreaterThan(180_000_000L);
  }
}
