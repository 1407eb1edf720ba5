package io.levee.load.bench;

import io.levee.load.gen.Bin;
import io.levee.load.gen.OpenLoop;
import io.levee.load.gen.Phase;
import io.levee.load.gen.Retries;
import io.levee.load.gen.Series;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * One open-loop point against any application, for scripts outside this bench
 * (benchmarks/run-petclinic.sh): a warm-up at one rate, then a measured stretch at another, the
 * rate shared equally by the pages given. Prints one JSON line with the measured stretch's totals.
 *
 * <p>Usage: {@code OpenLoopPoint BASE_URL WARM_RATE WARM_SECONDS RATE SECONDS DEADLINE_MS PATH...}
 */
public final class OpenLoopPoint {
  private OpenLoopPoint() {}

  public static void main(String[] args) throws InterruptedException {
    if (args.length < 7) {
      System.err.println(
          "usage: OpenLoopPoint BASE_URL WARM_RATE WARM_SECONDS RATE SECONDS DEADLINE_MS PATH...");
      System.exit(2);
    }
    double warmRate = Double.parseDouble(args[1]);
    int warmSeconds = Integer.parseInt(args[2]);
    double rate = Double.parseDouble(args[3]);
    int seconds = Integer.parseInt(args[4]);
    long deadlineMillis = Long.parseLong(args[5]);
    List<String> paths = List.of(args).subList(6, args.length);
    List<Phase.Load> warm = new ArrayList<>();
    List<Phase.Load> measured = new ArrayList<>();
    for (int i = 0; i < paths.size(); i++) {
      String stream = "page" + i;
      warm.add(new Phase.Load(stream, paths.get(i), warmRate / paths.size(), deadlineMillis));
      measured.add(new Phase.Load(stream, paths.get(i), rate / paths.size(), deadlineMillis));
    }
    List<Phase> phases =
        List.of(
            new Phase("warm-up", warmSeconds, warm, -1),
            new Phase("measured", seconds, measured, -1));
    Series series =
        new OpenLoop(OpenLoop.newClient(), args[0], null, null, Retries.NONE).run(phases);
    System.out.println(json(series, warmSeconds));
    // The HttpClient's threads would keep the JVM up.
    System.exit(0);
  }

  /** Every stream's totals from second {@code from} to the end, as one JSON object. */
  static String json(Series series, int from) {
    long offered = 0;
    long good = 0;
    long late = 0;
    long rejected = 0;
    long timeouts = 0;
    long errors = 0;
    Histogram admitted = new Histogram(60_000_000L, 2);
    for (Bin[] bins : series.streams.values()) {
      for (int t = from; t < series.seconds; t++) {
        Bin b = bins[t];
        offered += b.offered.sum();
        good += b.good.sum();
        late += b.late.sum();
        rejected += b.rejected.sum();
        timeouts += b.timeouts.sum();
        errors += b.errors.sum();
        admitted.add(b.copy());
      }
    }
    return String.format(
        Locale.ROOT,
        "{\"seconds\":%d,\"offered\":%d,\"good\":%d,\"late\":%d,\"rejected\":%d,\"timeouts\":%d,"
            + "\"errors\":%d,\"p50_us\":%d,\"p99_us\":%d}",
        series.seconds - from,
        offered,
        good,
        late,
        rejected,
        timeouts,
        errors,
        admitted.getValueAtPercentile(50),
        admitted.getValueAtPercentile(99));
  }
}
