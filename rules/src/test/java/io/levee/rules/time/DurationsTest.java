package io.levee.rules.time;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DurationsTest {
  @Test
  void writesTheLargestWholeUnitAsTheRulesFileWould() {
    assertThat(Durations.format(1_000_000_000L)).isEqualTo("1s");
    assertThat(Durations.format(500_000_000L)).isEqualTo("500ms");
    assertThat(Durations.format(1_500_000_000L)).isEqualTo("1500ms");
    assertThat(Durations.format(6_000_000_000L)).isEqualTo("6s");
    assertThat(Durations.format(120_000_000_000L)).isEqualTo("2m");
    assertThat(Durations.format(3_600_000_000_000L)).isEqualTo("1h");
    assertThat(Durations.format(123_400_000L)).isEqualTo("123.4ms");
    assertThat(Durations.format(0)).isEqualTo("0s");
  }
}
