package io.levee.load.bench;

import io.levee.load.gen.Bin;
import io.levee.load.gen.Phase;
import io.levee.load.gen.Series;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/** The raw per-second record of one run, one row per second and stream. */
final class Csv {
  private Csv() {}

  static void write(Path file, List<Phase> phases, Series s) throws IOException {
    StringBuilder b =
        new StringBuilder(
            "second,phase,stream,offered,retries,good,late,rejected,timeouts,errors,p50_ms,p99_ms,limit,generator_cpu\n");
    int[] at = Metrics.starts(phases);
    for (int i = 0; i < s.seconds; i++) {
      int p = 0;
      while (p + 1 < phases.size() && i >= at[p + 1]) {
        p++;
      }
      for (String stream : s.streams.keySet()) {
        Bin bin = s.bin(stream, i);
        Histogram h = bin.copy();
        b.append(
            String.format(
                Locale.ROOT,
                "%d,%s,%s,%d,%d,%d,%d,%d,%d,%d,%.2f,%.2f,%.1f,%.2f%n",
                i,
                phases.get(p).name(),
                stream,
                bin.offered.sum(),
                bin.retries.sum(),
                bin.good.sum(),
                bin.late.sum(),
                bin.rejected.sum(),
                bin.timeouts.sum(),
                bin.errors.sum(),
                h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(50) / 1000.0,
                h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(99) / 1000.0,
                s.limitMean[i],
                s.generatorCpu[i]));
      }
    }
    Files.writeString(file, b);
  }
}
