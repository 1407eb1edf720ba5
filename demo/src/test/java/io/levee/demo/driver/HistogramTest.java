package io.levee.demo.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class HistogramTest {
  @Test
  void p99IsTheSlowestPercentWithinABucket() {
    Histogram h = new Histogram();
    for (int i = 0; i < 990; i++) {
      h.record(5_000_000);
    }
    for (int i = 0; i < 10; i++) {
      h.record(800_000_000);
    }
    assertThat(h.percentileMillis(0.99)).isCloseTo(5, within(0.3));
    assertThat(h.percentileMillis(0.999)).isCloseTo(800, within(40.0));
  }

  @Test
  void anEmptyHistogramHasNoPercentile() {
    assertThat(new Histogram().percentileMillis(0.99)).isEqualTo(-1);
  }

  @Test
  void addingMergesCounts() {
    Histogram a = new Histogram();
    Histogram b = new Histogram();
    a.record(1_000_000);
    b.record(100_000_000);
    a.add(b);
    assertThat(a.count()).isEqualTo(2);
    assertThat(a.percentileMillis(1.0)).isCloseTo(100, within(5.0));
  }
}
