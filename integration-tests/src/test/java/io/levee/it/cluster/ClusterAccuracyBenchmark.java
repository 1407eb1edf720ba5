package io.levee.it.cluster;

import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Redis;
import io.levee.testkit.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The accuracy benchmark of the cluster rate limit (issue 26; docs/BENCHMARKS.md, "Cluster rate
 * limit: accuracy"): fleets of N {@link io.levee.it.apps.QuotaApp} JVMs with the packaged agent
 * share one {@code rate-limit: { scope: cluster }} on their calls to a real local partner, settled
 * through a private {@code redis-server}; the partner counts per second what it received, which is
 * what the fleet admitted. Three scenarios per fleet, each offering more than the rate: {@code
 * even} (every instance a part), {@code skewed} (all of it on instance 0, the others idle), {@code
 * moving} (on instance 0, then halfway on instance 1). Writes a CSV per scenario, {@code
 * summary.csv} and a PNG per fleet size ({@link AccuracyPlot}).
 *
 * <p>A main class, run by {@code benchmarks/run-cluster-accuracy.sh}: no build or test run starts
 * it. Before each scenario the fleet is idle for {@code --quiet} seconds (demand decays, buckets
 * refill to their part of the burst); each then runs {@code --warm-up} seconds, recorded and
 * plotted but not counted, and {@code --seconds} measured. Load changes fall on the partner's
 * second boundaries, give or take the few milliseconds a control request takes.
 */
public final class ClusterAccuracyBenchmark {
  enum Scenario {
    EVEN,
    SKEWED,
    MOVING;

    /** What instance {@code i} of {@code n} offers in measured second {@code s} (< 0: warm-up). */
    double offered(int i, int n, double total, int s, int measured) {
      switch (this) {
        case EVEN:
          return total / n;
        case SKEWED:
          return i == 0 ? total : 0;
        default:
          return i == (s < measured / 2 ? 0 : 1) ? total : 0;
      }
    }

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Map<String, String> options;
  private final double rate;
  private final double burst;
  private final int syncMillis;
  private final double load;
  private final int warmUp;
  private final int seconds;
  private final int quiet;

  private ClusterAccuracyBenchmark(Map<String, String> options) {
    this.options = options;
    this.rate = Double.parseDouble(option("rate", "300"));
    this.burst = Double.parseDouble(option("burst", "30"));
    this.syncMillis = Integer.parseInt(option("sync-ms", "100"));
    this.load = Double.parseDouble(option("load", "1.5"));
    this.warmUp = Integer.parseInt(option("warm-up", "5"));
    this.seconds = Integer.parseInt(option("seconds", "30"));
    this.quiet = Integer.parseInt(option("quiet", "3"));
  }

  /**
   * {@code --out DIR --img DIR [--instances 3,6] [--scenarios even,skewed,moving] [--rate 300]
   * [--burst 30] [--sync-ms 100] [--load 1.5] [--warm-up 5] [--seconds 30] [--quiet 3]}
   */
  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --option value, got " + args[i]);
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    new ClusterAccuracyBenchmark(options).run();
    System.exit(0);
  }

  private void run() throws Exception {
    Path out = Files.createDirectories(Paths.get(option("out", "target/cluster-accuracy")));
    Path img = Files.createDirectories(Paths.get(option("img", out.toString())));
    List<Scenario> scenarios =
        Arrays.stream(option("scenarios", "even,skewed,moving").split(","))
            .map(s -> Scenario.valueOf(s.trim().toUpperCase(Locale.ROOT)))
            .collect(Collectors.toList());
    List<AccuracySeries> all = new ArrayList<>();
    try (RedisServer redis = Redis.ownServer().start();
        LocalHttpServer partner = LocalHttpServer.start()) {
      for (String size : option("instances", "3,6").split(",")) {
        int n = Integer.parseInt(size.trim());
        String cluster = "accuracy-" + n + "-" + Long.toHexString(System.nanoTime());
        List<AccuracySeries> runs = new ArrayList<>();
        try (Fleet fleet =
            Fleet.start(
                "cluster-accuracy-" + n, n, rules(redis.url(), cluster), partner.url("/quota"))) {
          for (Scenario scenario : scenarios) {
            AccuracySeries s = scenario(fleet, partner, n, scenario);
            s.writeCsv(out.resolve("n" + n + "-" + scenario.label() + ".csv"));
            System.out.println(line(s));
            runs.add(s);
          }
          System.out.println("instance 0's status: " + fleet.status(0));
        }
        AccuracyPlot.draw(img.resolve("cluster-accuracy-" + n + ".png"), runs);
        all.addAll(runs);
      }
    }
    Files.writeString(out.resolve("summary.csv"), summary(all));
  }

  private String rules(String redis, String cluster) {
    return String.format(
        Locale.ROOT,
        "version: 1\n"
            + "settings:\n"
            + "  cluster: { redis: \"%s\", name: %s, sync: %dms }\n"
            + "resources:\n"
            + "  - name: partner-quota\n"
            + "    match: { http: { urls: [\"http://127.0.0.1:*/quota\"] } }\n"
            + "    rate-limit: { rate: %s/s, burst: %s, scope: cluster }\n",
        redis,
        cluster,
        syncMillis,
        whole(rate),
        whole(burst));
  }

  /** One scenario on a fleet idle until now; the fleet is idle again when it returns. */
  private AccuracySeries scenario(Fleet fleet, LocalHttpServer partner, int n, Scenario scenario) {
    AccuracySeries series = new AccuracySeries(n, scenario.label(), rate, burst, warmUp, seconds);
    double[] offered = new double[n];
    fleet.rates(offered);
    Fleet.sleep(quiet * 1000L);
    long[][] before = counts(fleet, n);
    long[][] start = before;
    int first = awaitSecond(partner, partner.second() + 1);
    for (int s = 0; s < series.seconds(); s++) {
      double[] next = new double[n];
      for (int i = 0; i < n; i++) {
        next[i] = scenario.offered(i, n, load * rate, s - warmUp, seconds);
        series.offeredBy[i][s] = next[i];
      }
      change(fleet, offered, next);
      offered = next;
      awaitSecond(partner, first + s + 1);
      long[][] now = counts(fleet, n);
      for (int i = 0; i < n; i++) {
        series.admittedBy[i][s] = now[0][i] - before[0][i];
      }
      before = now;
    }
    fleet.rates(new double[n]);
    // A call admitted in the last second reaches the partner within it or just after (uncounted).
    awaitSecond(partner, first + series.seconds() + 1);
    for (int s = 0; s < series.seconds(); s++) {
      series.received[s] = partner.receivedIn(first + s);
    }
    for (int i = 0; i < n; i++) {
      series.blocked += before[1][i] - start[1][i];
      series.errors += before[2][i] - start[2][i];
    }
    return series;
  }

  /** Raises first, then lowers: when the load moves, the fleet never offers less than it should. */
  private static void change(Fleet fleet, double[] from, double[] to) {
    for (int i = 0; i < to.length; i++) {
      if (to[i] > from[i]) {
        fleet.rate(i, to[i]);
      }
    }
    for (int i = 0; i < to.length; i++) {
      if (to[i] < from[i]) {
        fleet.rate(i, to[i]);
      }
    }
  }

  /** Each instance's admitted, blocked and errors counts, in that order. */
  private static long[][] counts(Fleet fleet, int n) {
    long[][] c = new long[3][n];
    for (int i = 0; i < n; i++) {
      Map<String, String> counts = fleet.counts(i);
      c[0][i] = Long.parseLong(counts.get("admitted"));
      c[1][i] = Long.parseLong(counts.get("blocked"));
      c[2][i] = Long.parseLong(counts.get("errors"));
    }
    return c;
  }

  /** Waits until the partner's clock reaches {@code second}; returns it. */
  private static int awaitSecond(LocalHttpServer partner, int second) {
    while (partner.second() < second) {
      Fleet.sleep(1);
    }
    return second;
  }

  private static String line(AccuracySeries s) {
    return String.format(
        Locale.ROOT,
        "%d instances, %-6s: mean %.3f R, 10-s windows %.3f..%.3f R (bound %.2f..%.3f: %s),"
            + " seconds %.3f..%.3f R, blocked %d, errors %d",
        s.instances,
        s.scenario,
        s.mean(),
        s.windowMin(),
        s.windowMax(),
        AccuracySeries.LOW,
        s.windowHigh(),
        verdict(s),
        s.secondMin(),
        s.secondMax(),
        s.blocked,
        s.errors);
  }

  private String summary(List<AccuracySeries> all) {
    StringBuilder b =
        new StringBuilder(
            "instances,scenario,rate,burst,sync_ms,offered_r,quiet_s,warm_up_s,measured_s,mean_r,"
                + "window_min_r,window_max_r,window_low_r,window_high_r,second_min_r,second_max_r,"
                + "bound,blocked,errors,instance_first_half_r,instance_second_half_r\n");
    for (AccuracySeries s : all) {
      b.append(
          String.format(
              Locale.ROOT,
              "%d,%s,%s,%s,%d,%.2f,%d,%d,%d,%.4f,%.4f,%.4f,%.2f,%.4f,%.4f,%.4f,%s,%d,%d,%s,%s%n",
              s.instances,
              s.scenario,
              whole(rate),
              whole(burst),
              syncMillis,
              load,
              quiet,
              s.warmUp,
              s.measured,
              s.mean(),
              s.windowMin(),
              s.windowMax(),
              AccuracySeries.LOW,
              s.windowHigh(),
              s.secondMin(),
              s.secondMax(),
              verdict(s),
              s.blocked,
              s.errors,
              instances(s, 0, s.measured / 2),
              instances(s, s.measured / 2, s.measured)));
    }
    return b.toString();
  }

  private static String verdict(AccuracySeries s) {
    return Double.isNaN(s.windowMin()) ? "no-window" : s.withinBound() ? "within" : "missed";
  }

  /** Each instance's mean admitted per second over measured seconds [from, to), over R. */
  private static String instances(AccuracySeries s, int from, int to) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.instances; i++) {
      b.append(i == 0 ? "" : " ")
          .append(String.format(Locale.ROOT, "%.3f", s.instanceMean(i, from, to) / s.rate));
    }
    return b.toString();
  }

  private String option(String name, String otherwise) {
    return options.getOrDefault(name, otherwise);
  }

  private static String whole(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
