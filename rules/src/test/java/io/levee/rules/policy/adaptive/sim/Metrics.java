package io.levee.rules.policy.adaptive.sim;

import io.levee.rules.model.Priority;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the clients of one simulated run saw, in bins of {@link #BIN_NANOS}, and the limit over
 * time. Goodput counts answers that were admitted and arrived within {@link
 * Scenario#DEADLINE_NANOS} of their intended send time, in the bin they arrived; latencies are
 * those of admitted answers of {@code /cpu}, the page every scenario judges.
 */
public final class Metrics {
  public static final long BIN_NANOS = 250_000_000L;
  private final Scenario scenario;
  private final int bins;
  private final long[][] offered = new long[2][];
  private final long[][] rejected = new long[2][];
  private final long[][] good = new long[2][];
  private final long[][] served = new long[2][];
  private final long[] firstOffered;

  /** Per priority, by intended send time: requests offered, and those turned away. */
  private final long[][] offeredBy = new long[Priority.values().length][];

  private final long[][] rejectedBy = new long[Priority.values().length][];
  private final List<List<Long>> latencies = new ArrayList<>();
  private final List<List<Long>> latenciesByPhase = new ArrayList<>();
  private final List<LimitSample> limits = new ArrayList<>();

  Metrics(Scenario scenario) {
    this.scenario = scenario;
    this.bins = (int) Math.ceil(scenario.totalSeconds() * 1e9 / BIN_NANOS) + 1;
    this.firstOffered = new long[bins];
    for (int c = 0; c < 2; c++) {
      served[c] = new long[bins];
      offered[c] = new long[bins];
      rejected[c] = new long[bins];
      good[c] = new long[bins];
    }
    for (int p = 0; p < offeredBy.length; p++) {
      offeredBy[p] = new long[bins];
      rejectedBy[p] = new long[bins];
    }
    for (int i = 0; i < bins; i++) {
      latencies.add(new ArrayList<>());
    }
    for (int i = 0; i < scenario.phases().size(); i++) {
      latenciesByPhase.add(new ArrayList<>());
    }
  }

  void offered(ServerModel.Request r) {
    offered[page(r)][bin(r.intended)]++;
    offeredBy[r.priority.ordinal()][bin(r.intended)]++;
    if (!r.retry) {
      firstOffered[bin(r.intended)]++;
    }
  }

  void answered(ServerModel.Request r, long now, boolean gaveUp) {
    if (!r.admitted) {
      rejected[page(r)][bin(r.intended)]++;
      rejectedBy[r.priority.ordinal()][bin(r.intended)]++;
      return;
    }
    long latency = now - r.intended;
    if (!gaveUp && latency <= Scenario.CLIENT_TIMEOUT_NANOS) {
      served[page(r)][bin(now)]++;
    }
    if (r.cpuPage != (scenario.database() == null)) {
      return; // latency and goodput are those of /cpu, or of /io when it waits on a database
    }
    latencies.get(bin(now)).add(latency);
    latenciesByPhase.get(phase(r.intended)).add(latency);
    if (!gaveUp && latency <= Scenario.DEADLINE_NANOS) {
      good[page(r)][bin(now)]++;
    }
  }

  /** The limit and the smoothed CPU at one instant of the run. */
  public record LimitSample(double seconds, int limit, double cpu) {}

  void tick(long now, int limit, double cpu) {
    limits.add(new LimitSample(now / 1e9, limit, cpu));
  }

  /** Goodput of a page ({@code cpuPage}) over [from, to) seconds, requests per second. */
  public double goodput(boolean cpuPage, double from, double to) {
    return sum(good[cpuPage ? 0 : 1], from, to) / (to - from);
  }

  /** Answers of a page before the client gave up, over [from, to) seconds, per second. */
  public double served(boolean cpuPage, double from, double to) {
    return sum(served[cpuPage ? 0 : 1], from, to) / (to - from);
  }

  /** Rejected requests of both pages sent during [from, to) seconds. */
  public long rejects(double from, double to) {
    return sum(rejected[0], from, to) + sum(rejected[1], from, to);
  }

  public long offered(double from, double to) {
    return sum(offered[0], from, to) + sum(offered[1], from, to);
  }

  /** The share of the requests of {@code priority} sent during [from, to) seconds admitted. */
  public double admittedShare(Priority priority, double from, double to) {
    long sent = sum(offeredBy[priority.ordinal()], from, to);
    return sent == 0 ? 0 : 1 - (double) sum(rejectedBy[priority.ordinal()], from, to) / sent;
  }

  /** Requests of every page admitted of those sent during [from, to) seconds. */
  public long admitted(double from, double to) {
    return offered(from, to) - rejects(from, to);
  }

  /** Admitted latency percentile {@code q} of the requests sent during phase {@code phase}. */
  public long percentile(int phase, double q) {
    return percentile(latenciesByPhase.get(phase), q);
  }

  /**
   * Seconds after {@code from} until every later second (a sliding window of {@link #BIN_NANOS}
   * steps) before {@code to} has goodput within 10 % of {@code expected} requests per second (or,
   * when {@code expected} is negative, of the first attempts sent in that second) and an admitted
   * {@code /cpu} p99 within the deadline.
   */
  public double settleSeconds(double from, double to, double expected) {
    return lastBadWindow(from, to, expected, 0.1, true);
  }

  /**
   * Seconds after {@code from} until every later second before {@code to} has goodput of at least
   * {@code floor} times the first attempts sent in that second.
   */
  public double recoverySeconds(double from, double to, double floor) {
    return lastBadWindow(from, to, -1, 1 - floor, false);
  }

  private double lastBadWindow(double from, double to, double expected, double band, boolean both) {
    int first = (int) Math.round(from * 1e9 / BIN_NANOS);
    int last = (int) Math.round(to * 1e9 / BIN_NANOS);
    int per = (int) (1_000_000_000L / BIN_NANOS);
    int settled = first;
    for (int b = first; b + per <= last; b++) {
      double goodput = 0;
      double sent = 0;
      List<Long> lat = new ArrayList<>();
      for (int i = b; i < b + per; i++) {
        goodput += good[0][i] + good[1][i];
        sent += firstOffered[i];
        lat.addAll(latencies.get(i));
      }
      double want = expected >= 0 ? expected : sent;
      boolean ok =
          both
              ? Math.abs(goodput - want) <= band * want
                  && percentile(lat, 0.99) <= Scenario.DEADLINE_NANOS
              : goodput >= (1 - band) * want;
      if (!ok) {
        settled = b + 1;
      }
    }
    return (settled - first) * BIN_NANOS / 1e9;
  }

  /** Coefficient of variation of the limit over [from, to) seconds. */
  public double limitCov(double from, double to) {
    double sum = 0;
    double sq = 0;
    int n = 0;
    for (LimitSample l : limits) {
      if (l.seconds() >= from && l.seconds() < to) {
        double limit = l.limit();
        sum += limit;
        sq += limit * limit;
        n++;
      }
    }
    double mean = sum / n;
    return mean == 0 ? 0 : Math.sqrt(Math.max(0, sq / n - mean * mean)) / mean;
  }

  /** Mean limit over [from, to) seconds. */
  public double meanLimit(double from, double to) {
    double sum = 0;
    int n = 0;
    for (LimitSample l : limits) {
      if (l.seconds() >= from && l.seconds() < to) {
        sum += l.limit();
        n++;
      }
    }
    return sum / n;
  }

  /** The limit every 100 ms. */
  public List<LimitSample> limits() {
    return limits;
  }

  private static long percentile(List<Long> values, double q) {
    if (values.isEmpty()) {
      return 0;
    }
    long[] a = new long[values.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = values.get(i);
    }
    Arrays.sort(a);
    return a[Math.min(a.length - 1, (int) Math.ceil(q * a.length) - 1)];
  }

  private long sum(long[] counts, double from, double to) {
    long s = 0;
    for (int b = (int) Math.round(from * 1e9 / BIN_NANOS);
        b < Math.min(bins, (int) Math.round(to * 1e9 / BIN_NANOS));
        b++) {
      s += counts[b];
    }
    return s;
  }

  private int phase(long t) {
    double s = t / 1e9;
    for (int i = 0; i < scenario.phases().size(); i++) {
      s -= scenario.phases().get(i).seconds();
      if (s < 0) {
        return i;
      }
    }
    return scenario.phases().size() - 1;
  }

  private static int page(ServerModel.Request r) {
    return r.cpuPage ? 0 : 1;
  }

  private int bin(long t) {
    return (int) Math.min(bins - 1, t / BIN_NANOS);
  }
}
