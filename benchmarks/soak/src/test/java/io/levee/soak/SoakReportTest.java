package io.levee.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The soak's report: its table, its summary and the exit status it gives. */
class SoakReportTest {
  private static final SoakTarget.Command OK = new SoakTarget.Command(true, 1_000, "");

  @Test
  void aBareMinuteThatFailedMakesTheRunInconclusiveWhateverTheHeapDid() {
    SoakStats bare = new SoakStats();
    bare.failed(false, true, "no answer", 30_000_000_000L);

    SoakReport report =
        new SoakReport(
            List.of(
                minute(0, bare, 40),
                minute(1, new SoakStats(), 100),
                minute(2, new SoakStats(), 160)));

    assertThat(report.exitStatus()).isEqualTo(3);
    assertThat(report.markdown(""))
        .contains("INCONCLUSIVE: 1 request(s) failed in the bare minute 0");
  }

  @Test
  void aCleanBareMinuteStillJudgesTheHeapGrowth() {
    SoakReport report =
        new SoakReport(
            List.of(
                minute(0, new SoakStats(), 40),
                minute(1, new SoakStats(), 100),
                minute(2, new SoakStats(), 160)));

    assertThat(report.exitStatus()).isEqualTo(1);
    assertThat(report.markdown("")).contains("heap after GC grew 60.0 MB");
  }

  private static SoakReport.Minute minute(int index, SoakStats stats, double heapMb) {
    SoakTarget.Sample sample = new SoakTarget.Sample(heapMb, 28, 220, 6_000, 0, 0);
    return index == 0
        ? new SoakReport.Minute(0, stats, sample, null, null, null, 0)
        : new SoakReport.Minute(index, stats, sample, OK, OK, OK, 10);
  }
}
