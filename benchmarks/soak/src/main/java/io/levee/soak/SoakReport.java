package io.levee.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The soak's verdict and its markdown report: one row per minute, then the summary. Growth is
 * judged from the end of minute 1, not from the bare minute 0: the first attach leaves what is
 * documented to stay (the bridge classes on the boot class path, the JVM's attach listener thread),
 * and a leak is what keeps growing after that.
 */
final class SoakReport {
  /** Used heap after a full GC may end at most this far above minute 1. */
  static final double HEAP_TOLERANCE_MB = 4;

  /** The thread count may end at most this far above minute 1 (Tomcat's pool breathes a little). */
  static final int THREAD_TOLERANCE = 3;

  /** Loaded classes may end at most this far above minute 1. */
  static final long CLASS_TOLERANCE = 200;

  /**
   * One minute: its requests, the reading at its end, the commands of its cycle (null in minute 0).
   */
  record Minute(
      int index,
      SoakStats stats,
      SoakTarget.Sample sample,
      SoakTarget.Command attach,
      SoakTarget.Command reload,
      SoakTarget.Command detach,
      long leveePassed) {}

  private final List<Minute> minutes;
  private final List<String> problems = new ArrayList<>();
  private String doubt;

  SoakReport(List<Minute> minutes) {
    this.minutes = minutes;
    judge();
  }

  boolean passed() {
    return problems.isEmpty() && doubt == null;
  }

  /**
   * 0 passed, 1 a defect (a failure caused by Levee, growth), 3 inconclusive (machine overloaded).
   */
  int exitStatus() {
    return !problems.isEmpty() ? 1 : doubt != null ? 3 : 0;
  }

  private void judge() {
    long errors = 0;
    long timeouts = 0;
    long timeoutsWithout = 0;
    for (Minute m : minutes) {
      errors += m.stats.errorsWithAgent();
      timeouts += m.stats.timeoutsWithAgent();
      timeoutsWithout += m.stats.timeoutsWithout();
      if (m.sample.leveeThreads() > 0) {
        problems.add(
            "minute "
                + m.index
                + ": "
                + m.sample.leveeThreads()
                + " levee thread(s) still alive after detach");
      }
      if (m.attach != null && !(m.attach.ok() && m.reload.ok() && m.detach.ok())) {
        problems.add(
            "minute "
                + m.index
                + ": a command failed: attach "
                + m.attach.ok()
                + ", reload "
                + m.reload.ok()
                + ", detach "
                + m.detach.ok());
      }
      if (m.attach != null && m.leveePassed <= 0) {
        problems.add("minute " + m.index + ": the agent's status showed no admitted call");
      }
    }
    // The rules admit all of the soak's traffic, so an error answer or a broken connection while
    // the agent is in is the agent's. A timeout is too, unless the bare application timed out as
    // well: then the machine, not the agent, ran out of capacity, and the run proves nothing.
    if (errors > 0) {
      problems.add(errors + " request(s) failed with an error while the agent was in");
    }
    if (timeouts > 0 && timeoutsWithout == 0) {
      problems.add(
          timeouts + " request(s) timed out while the agent was in, none while it was out");
    } else if (timeouts > 0) {
      doubt =
          String.format(
              Locale.ROOT,
              "INCONCLUSIVE: requests timed out with the agent in (%d)"
                  + " and out (%d): the machine was overloaded beyond the measured capacity",
              timeouts,
              timeoutsWithout);
    }
    long bareFailed = minutes.isEmpty() ? 0 : minutes.get(0).stats.failedWithout();
    if (bareFailed > 0) {
      // Heap and threads then hold the backlog of a collapsed application, not what the agent left.
      doubt =
          String.format(
              Locale.ROOT,
              "INCONCLUSIVE: %d request(s) failed in the bare minute 0:"
                  + " the machine did not carry the load even without the agent",
              bareFailed);
      return;
    }
    if (minutes.size() < 3) {
      return;
    }
    SoakTarget.Sample first = minutes.get(1).sample;
    SoakTarget.Sample last = minutes.get(minutes.size() - 1).sample;
    if (last.heapMb() - first.heapMb() > HEAP_TOLERANCE_MB) {
      problems.add(
          String.format(
              Locale.ROOT,
              "heap after GC grew %.1f MB (tolerance %.0f MB)",
              last.heapMb() - first.heapMb(),
              HEAP_TOLERANCE_MB));
    }
    if (last.threads() - first.threads() > THREAD_TOLERANCE) {
      problems.add(
          "threads grew by "
              + (last.threads() - first.threads())
              + " (tolerance "
              + THREAD_TOLERANCE
              + ")");
    }
    if (last.liveClasses() - first.liveClasses() > CLASS_TOLERANCE) {
      problems.add(
          "loaded classes grew by "
              + (last.liveClasses() - first.liveClasses())
              + " (tolerance "
              + CLASS_TOLERANCE
              + ")");
    }
  }

  String markdown(String header) {
    StringBuilder b = new StringBuilder(header).append('\n');
    b.append(
        "| min | sent | 2xx | agent in: requests / errors / timeouts | agent out: requests /"
            + " errors / timeouts | p50 ms | p99 ms | heap MB | metaspace MB | threads | classes |"
            + " attach / reload / detach ms | passed by Levee |\n");
    b.append("|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---|---:|\n");
    for (Minute m : minutes) {
      SoakTarget.Sample s = m.sample;
      b.append(
          String.format(
              Locale.ROOT,
              "| %d | %d | %d | %d / %d / %d | %d / %d / %d | %.1f | %.1f | %.2f | %.2f | %d | %d | %s |"
                  + " %s |%n",
              m.index,
              m.stats.sent(),
              m.stats.ok(),
              m.stats.withAgent(),
              m.stats.errorsWithAgent(),
              m.stats.timeoutsWithAgent(),
              m.stats.without(),
              m.stats.errorsWithout(),
              m.stats.timeoutsWithout(),
              m.stats.p50(),
              m.stats.p99(),
              s.heapMb(),
              s.metaspaceMb(),
              s.threads(),
              s.liveClasses(),
              commands(m),
              m.attach == null ? "-" : m.leveePassed));
    }
    b.append('\n').append(summary());
    for (Minute m : minutes) {
      m.stats
          .failures()
          .forEach(f -> b.append("- minute ").append(m.index).append(": ").append(f).append('\n'));
    }
    return b.toString();
  }

  private static String commands(Minute m) {
    if (m.attach == null) {
      return "(bare)";
    }
    return mark(m.attach) + " / " + mark(m.reload) + " / " + mark(m.detach);
  }

  private static String mark(SoakTarget.Command c) {
    return c.millis() + (c.ok() ? "" : " FAILED");
  }

  private String summary() {
    long sent = 0;
    long ok = 0;
    long withAgent = 0;
    long without = 0;
    for (Minute m : minutes) {
      sent += m.stats.sent();
      ok += m.stats.ok();
      withAgent += m.stats.failedWithAgent();
      without += m.stats.failedWithout();
    }
    List<Minute> judged = minutes.subList(Math.min(1, minutes.size()), minutes.size());
    StringBuilder b = new StringBuilder("**Summary**\n\n");
    b.append(
        String.format(
            Locale.ROOT,
            "- requests: %d sent, %d answered 2xx; failed: %d while"
                + " the agent was in, %d while it was out%n",
            sent,
            ok,
            withAgent,
            without));
    b.append(
        series(
            "heap kept by a full GC, old generation and survivors (MB)",
            judged,
            m -> m.sample.heapMb()));
    b.append(series("threads", judged, m -> m.sample.threads()));
    b.append(series("loaded classes", judged, m -> m.sample.liveClasses()));
    b.append(series("metaspace (MB)", judged, m -> m.sample.metaspaceMb()));
    b.append(
        String.format(
            Locale.ROOT,
            "- tolerances (from minute 1 to the end): heap +%.0f MB,"
                + " threads +%d, classes +%d; no levee thread after a detach%n",
            HEAP_TOLERANCE_MB,
            THREAD_TOLERANCE,
            CLASS_TOLERANCE));
    b.append("- verdict: ")
        .append(!problems.isEmpty() ? "FAIL" : doubt != null ? doubt : "PASS")
        .append('\n');
    problems.forEach(p -> b.append("  - ").append(p).append('\n'));
    return b.toString();
  }

  private static String series(
      String name, List<Minute> ms, java.util.function.ToDoubleFunction<Minute> f) {
    if (ms.isEmpty()) {
      return "";
    }
    double max = Double.NEGATIVE_INFINITY;
    double sx = 0;
    double sy = 0;
    double sxx = 0;
    double sxy = 0;
    for (Minute m : ms) {
      double y = f.applyAsDouble(m);
      max = Math.max(max, y);
      sx += m.index;
      sy += y;
      sxx += (double) m.index * m.index;
      sxy += m.index * y;
    }
    int n = ms.size();
    double denominator = n * sxx - sx * sx;
    double slope = denominator == 0 ? 0 : (n * sxy - sx * sy) / denominator;
    return String.format(
        Locale.ROOT,
        "- %s, minutes %d to %d: first %.2f, last %.2f, max %.2f," + " slope %+.3f per minute%n",
        name,
        ms.get(0).index,
        ms.get(n - 1).index,
        f.applyAsDouble(ms.get(0)),
        f.applyAsDouble(ms.get(n - 1)),
        max,
        slope);
  }
}
