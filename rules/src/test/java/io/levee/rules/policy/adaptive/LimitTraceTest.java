package io.levee.rules.policy.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LimitTraceTest {
  @Test
  void aLineSaysWhatTheWindowSawAndWhatMovedTheLimit() {
    WindowSample w = new WindowSample();
    for (int i = 0; i < 40; i++) {
      w.record(20_000_000L);
    }
    w.drop();
    w.setRefused(312).setMaxInFlight(8).setCpu(0.414, 0.8).setWindowNanos(83_000_000L);
    assertThat(LimitTrace.line(8, 16, w, "probe: a higher limit", 10_000_000L))
        .isEqualTo(
            "8 -> 16, probe: a higher limit (median 19.9 ms = 1.99 x baseline 10.0 ms,"
                + " p90 19.9 ms; 8 in flight at most; 40 calls, 1 failed, 312 refused in 83 ms;"
                + " cpu 41 %, target 80 %)");
  }

  @Test
  void aLineNamesTheCallsRefusedBelowTheLimit() {
    WindowSample w = new WindowSample().record(20_000_000L);
    w.setRefused(312).setRefusedBelowLimit(200).setMaxInFlight(61).setWindowNanos(83_000_000L);
    assertThat(LimitTrace.line(70, 70, w, "keep", 0))
        .contains("61 in flight at most; 1 calls, 0 failed, 312 refused (200 below the limit) in");
  }
}
