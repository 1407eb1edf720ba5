package io.levee.demo.driver;

import java.util.Locale;

/**
 * Levee's state as seen from outside the application: a breaker is open when quotes come back with
 * the fallback while the partner hears nothing, half-open ("probing") when both happen, closed when
 * no fallback is served. The database's own peak of concurrent slow queries stands for the
 * concurrency limit.
 */
final class ObservedStatus implements StatusSource {
  private final String breakerResource;
  private final String queryResource;

  ObservedStatus(String breakerResource, String queryResource) {
    this.breakerResource = breakerResource;
    this.queryResource = queryResource;
  }

  @Override
  public String state(Row row, Tick window) {
    RowStats stats = window.row(row.name);
    if (row.resource.equals(breakerResource)) {
      String breaker =
          stats.fallback() == 0
              ? "closed"
              : stats.ok() == 0 && window.partnerCalls() == 0 ? "open" : "open/probing";
      return String.format(
          Locale.ROOT, "%-12s partner %.0f/s", breaker, window.perSecond(window.partnerCalls()));
    }
    if (row.resource.equals(queryResource)) {
      return "db ran " + window.dbPeak() + " at once";
    }
    return "";
  }
}
