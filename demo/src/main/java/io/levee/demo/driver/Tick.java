package io.levee.demo.driver;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the driver saw over a span of a scenario: the counts of each row, the calls that reached the
 * partner, and the most slow queries the database ran at once. Ticks of one second add up to the
 * windows the table shows.
 *
 * @param at seconds into the scenario at the end of the span
 */
record Tick(double at, double seconds, Map<String, RowStats> rows, long partnerCalls, int dbPeak) {

  Tick plus(Tick later) {
    Map<String, RowStats> sum = new LinkedHashMap<>();
    rows.forEach((name, stats) -> sum.put(name, stats.copy()));
    later.rows.forEach((name, stats) -> sum.computeIfAbsent(name, n -> new RowStats()).add(stats));
    return new Tick(
        later.at,
        seconds + later.seconds,
        sum,
        partnerCalls + later.partnerCalls,
        Math.max(dbPeak, later.dbPeak));
  }

  RowStats row(String name) {
    return rows.getOrDefault(name, new RowStats());
  }

  double perSecond(long count) {
    return seconds > 0 ? count / seconds : 0;
  }
}
