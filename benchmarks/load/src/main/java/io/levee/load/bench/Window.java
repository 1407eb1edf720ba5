package io.levee.load.bench;

import io.levee.load.gen.Bin;
import io.levee.load.gen.Series;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The totals of one stream, or of several together, over a range of seconds [from, to) of a run.
 */
final class Window {
  final int seconds;
  long offered;
  long retries;
  long good;
  long late;
  long rejected;
  long timeouts;
  long errors;
  final Histogram admitted = new Histogram(60_000_000L, 2);

  Window(Series s, String stream, int from, int to) {
    this(s, List.of(stream), from, to);
  }

  Window(Series s, List<String> streams, int from, int to) {
    seconds = to - from;
    for (int i = from; i < to; i++) {
      for (String stream : streams) {
        add(s.bin(stream, i));
      }
    }
  }

  private void add(Bin b) {
    if (b != null) {
      offered += b.offered.sum();
      retries += b.retries.sum();
      good += b.good.sum();
      late += b.late.sum();
      rejected += b.rejected.sum();
      timeouts += b.timeouts.sum();
      errors += b.errors.sum();
      admitted.add(b.copy());
    }
  }

  double goodPerSecond() {
    return seconds == 0 ? 0 : (double) good / seconds;
  }

  double answeredPerSecond() {
    return seconds == 0 ? 0 : (double) (good + late) / seconds;
  }

  double rejectRatio() {
    long sent = offered + retries;
    return sent == 0 ? 0 : (double) rejected / sent;
  }

  /** Admitted latency percentile in ms; NaN when nothing was admitted. */
  double millis(double percentile) {
    return admitted.getTotalCount() == 0
        ? Double.NaN
        : admitted.getValueAtPercentile(percentile) / 1000.0;
  }
}
