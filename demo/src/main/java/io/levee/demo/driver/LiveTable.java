package io.levee.demo.driver;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders a window of a scenario as a table, one row per stream of requests. On a terminal the
 * table is redrawn in place (the only ANSI codes used: cursor up, clear below); otherwise each
 * table is printed after the last, so a log file stays readable.
 */
final class LiveTable {
  private static final String HEADER =
      String.format(
          Locale.ROOT,
          "  %-14s %7s %7s %9s  %-14s %12s %7s  %-9s %s",
          "traffic",
          "sent/s",
          "ok/s",
          "blocked/s",
          "why",
          "err/s",
          "p99 ms",
          "limit",
          "state");

  private final PrintStream out;
  private final boolean redraw;
  private final RulesOverview rules;
  private final StatusSource status;
  private int drawn;

  LiveTable(PrintStream out, boolean redraw, RulesOverview rules, StatusSource status) {
    this.out = out;
    this.redraw = redraw;
    this.rules = rules;
    this.status = status;
  }

  /** Shows {@code window}; on a terminal, in place of the table shown last. */
  void show(String title, List<Row> rows, Tick window) {
    List<String> lines = render(title, rows, window);
    if (redraw && drawn > 0) {
      out.print("\033[" + drawn + "F\033[J");
    }
    lines.forEach(out::println);
    out.flush();
    drawn = redraw ? lines.size() : 0;
  }

  /** Ends the live part: the next table is printed below this one. */
  void keep() {
    drawn = 0;
  }

  List<String> render(String title, List<Row> rows, Tick window) {
    status.refresh();
    List<String> lines = new ArrayList<>();
    lines.add(title);
    lines.add(HEADER);
    for (Row row : rows) {
      RowStats s = window.row(row.name);
      long notServed = s.blocked() + s.fallback();
      String why = notServed == 0 ? "" : s.topReason();
      String errors = s.errors() == 0 ? "0" : rate(window, s.errors()) + " " + s.topError();
      double p99 = s.p99Admitted();
      lines.add(
          String.format(
              Locale.ROOT,
              "  %-14s %7s %7s %9s  %-14s %12s %7s  %-9s %s",
              row.name,
              rate(window, s.sent()),
              rate(window, s.ok()),
              rate(window, notServed),
              why,
              errors,
              p99 < 0 ? "-" : millis(p99),
              status.limit(row, rules.limit(row.resource)),
              status.state(row, window)));
    }
    return lines;
  }

  private static String rate(Tick window, long count) {
    double r = window.perSecond(count);
    return r == 0 ? "0" : String.format(Locale.ROOT, "%.1f", r);
  }

  static String millis(double ms) {
    return ms < 10
        ? String.format(Locale.ROOT, "%.1f", ms)
        : String.format(Locale.ROOT, "%.0f", ms);
  }
}
