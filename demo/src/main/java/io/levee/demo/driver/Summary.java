package io.levee.demo.driver;

import static io.levee.demo.driver.Scenarios.ACME;
import static io.levee.demo.driver.Scenarios.COMPUTE;
import static io.levee.demo.driver.Scenarios.OTHERS;
import static io.levee.demo.driver.Scenarios.QUOTE;
import static io.levee.demo.driver.Scenarios.REPORT;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The closing summary: one verdict per scenario, saying what the protection did in numbers a reader
 * can check against the tables above. "[held]" means the protection did what the scenario is about;
 * "[ -- ]" means it did not (expected when the demo runs with {@code --no-agent}).
 */
final class Summary {
  private static final String RATE_LIMITED = "429 rate";

  private final List<ScenarioRunner.Result> results;

  Summary(List<ScenarioRunner.Result> results) {
    this.results = results;
  }

  List<String> lines() {
    List<String> lines = new ArrayList<>();
    for (ScenarioRunner.Result r : results) {
      lines.addAll(
          switch (r.scenario().id()) {
            case NORMAL -> normal(r);
            case BURST -> burst(r);
            case PARTNER -> partner(r);
            case STORM -> storm(r);
            case CPU -> cpu(r);
          });
    }
    return lines;
  }

  private List<String> normal(ScenarioRunner.Result r) {
    long sent = 0;
    long ok = 0;
    long blocked = 0;
    for (RowStats s : r.total().rows().values()) {
      sent += s.sent();
      ok += s.ok();
      blocked += s.blocked() + s.fallback();
    }
    return verdict(
        blocked == 0 && ok >= sent * 0.98,
        r,
        String.format(
            Locale.ROOT,
            "%d of %d requests served, %d blocked; p99 orders %s ms,"
                + " quote %s ms, report %s ms",
            ok,
            sent,
            blocked,
            p99(r, OTHERS),
            p99(r, QUOTE),
            p99(r, REPORT)));
  }

  private List<String> burst(ScenarioRunner.Result r) {
    RowStats acme = r.total().row(ACME);
    RowStats others = r.total().row(OTHERS);
    long othersLimited = others.notServed(RATE_LIMITED);
    long othersShed = others.blocked() - othersLimited;
    return verdict(
        acme.notServed(RATE_LIMITED) > 0 && othersLimited == 0,
        r,
        String.format(
            Locale.ROOT,
            "acme: %d sent, %d served, %d refused with 429 (%d with" + " Retry-After)",
            acme.sent(),
            acme.ok(),
            acme.notServed(RATE_LIMITED),
            Math.min(acme.retryAfter(), acme.notServed(RATE_LIMITED))),
        String.format(
            Locale.ROOT,
            "globex and initech: %d sent, %d served, %d refused with 429%s;" + " p99 %s ms",
            others.sent(),
            others.ok(),
            othersLimited,
            othersShed > 0 ? " (" + othersShed + " shed by the system limit)" : "",
            p99(r, OTHERS)));
  }

  private List<String> partner(ScenarioRunner.Result r) {
    double recovery = r.scenario().stepAt(1);
    long quotes = 0;
    long fallbacks = 0;
    long errors = 0;
    long partnerCalls = 0;
    double closedAt = -1;
    for (Tick t : r.timeline()) {
      RowStats q = t.row(QUOTE);
      if (t.at() <= recovery) {
        quotes += q.sent();
        fallbacks += q.fallback();
        errors += q.errors();
        partnerCalls += t.partnerCalls();
      } else if (q.fallback() > q.answered() / 10) {
        closedAt = -1;
      } else if (closedAt < 0) {
        closedAt = t.at();
      }
    }
    double spared = quotes == 0 ? 0 : 100.0 * (quotes - Math.min(partnerCalls, quotes)) / quotes;
    String back =
        closedAt < 0
            ? "quotes were still not served normally at the end"
            : String.format(
                Locale.ROOT,
                "quotes served by the partner again %.0f s after it recovered",
                closedAt - recovery);
    return verdict(
        fallbacks > 0 && spared >= 50 && closedAt >= 0,
        r,
        String.format(
            Locale.ROOT,
            "while failing: %d quotes, %d got the fallback price, %d failed" + " (502)",
            quotes,
            fallbacks,
            errors),
        String.format(
            Locale.ROOT,
            "the partner received %d calls for %d quotes (%.0f%% spared);" + " %s",
            partnerCalls,
            quotes,
            spared,
            back));
  }

  private List<String> storm(ScenarioRunner.Result r) {
    RowStats report = r.total().row(REPORT);
    int peak = r.total().dbPeak();
    return verdict(
        report.blocked() > 0 && peak <= 4,
        r,
        String.format(
            Locale.ROOT,
            "%d reports: %d ran, %d refused at once (503), %d failed;"
                + " the database ran at most %d at once",
            report.sent(),
            report.ok(),
            report.blocked(),
            report.errors(),
            peak),
        String.format(
            Locale.ROOT,
            "p99 of the reports that ran: %s ms; meanwhile orders p99 %s ms",
            p99(r, REPORT),
            p99(r, OTHERS)));
  }

  private List<String> cpu(ScenarioRunner.Result r) {
    RowStats compute = r.total().row(COMPUTE);
    String normal =
        results.stream()
            .filter(x -> x.scenario().id() == Scenario.Id.NORMAL)
            .findFirst()
            .map(x -> p99(x, COMPUTE))
            .orElse("?");
    double admittedP99 = compute.p99Admitted();
    return verdict(
        compute.blocked() > 0 && admittedP99 >= 0 && admittedP99 < 2_000,
        r,
        String.format(
            Locale.ROOT,
            "%d computations: %d served, %d shed (503), %d failed",
            compute.sent(),
            compute.ok(),
            compute.blocked(),
            compute.errors()),
        String.format(
            Locale.ROOT,
            "p99 of those served: %s ms (normal traffic: %s ms);" + " orders p99 %s ms",
            p99(r, COMPUTE),
            normal,
            p99(r, OTHERS)));
  }

  private static String p99(ScenarioRunner.Result r, String row) {
    double p99 = r.total().row(row).p99Admitted();
    return p99 < 0 ? "-" : LiveTable.millis(p99);
  }

  private static List<String> verdict(boolean held, ScenarioRunner.Result r, String... details) {
    List<String> lines = new ArrayList<>();
    lines.add((held ? "  [held] " : "  [ -- ] ") + r.scenario().title());
    for (String d : details) {
      lines.add("         " + d);
    }
    return lines;
  }
}
