package io.levee.demo.driver;

import io.levee.demo.partner.Partner;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plays one scenario: sets the rates, fires its events on time, and every second collects a {@link
 * Tick} (rows, partner calls, the database's peak) for the live table and the summary.
 */
final class ScenarioRunner {
  private static final Pattern PEAK = Pattern.compile("\"slowQueriesPeak\":(\\d+)");

  private final List<Row> rows;
  private final Partner partner;
  private final HttpClient client;
  private final String base;
  private final LiveTable table;
  private final PrintStream out;
  private final int windowTicks;
  private final boolean everyTick;

  ScenarioRunner(
      List<Row> rows,
      Partner partner,
      HttpClient client,
      String base,
      LiveTable table,
      PrintStream out,
      boolean terminal) {
    this.rows = rows;
    this.partner = partner;
    this.client = client;
    this.base = base;
    this.table = table;
    this.out = out;
    this.windowTicks = terminal ? 2 : 5;
    this.everyTick = terminal;
  }

  record Result(Scenario scenario, Tick total, List<Tick> timeline) {}

  Result run(Scenario s, int number, int of) throws InterruptedException {
    out.printf(Locale.ROOT, "%n== %d/%d %s: %s%n", number, of, s.title(), s.story());
    rows.forEach(r -> r.rate(s.rates().getOrDefault(r.name, 0.0)));
    rows.forEach(Row::takeScenario);
    rows.forEach(Row::takeTick);
    long partnerBefore = partner.calls();
    takeDbPeak();
    long start = System.nanoTime();
    List<Tick> timeline = new ArrayList<>();
    int nextStep = 0;
    int ticks = (int) Math.round(s.seconds());
    for (int t = 1; t <= ticks; t++) {
      while (nextStep < s.steps().size() && s.steps().get(nextStep).at() < t) {
        Scenario.Step step = s.steps().get(nextStep++);
        step.action().run();
        out.printf(Locale.ROOT, "   at %2.0fs: %s%n", step.at(), step.note());
        table.keep();
      }
      sleepUntil(start + t * 1_000_000_000L);
      long calls = partner.calls();
      timeline.add(collect(t, calls - partnerBefore));
      partnerBefore = calls;
      if (everyTick || t % windowTicks == 0) {
        table.show(
            String.format(
                Locale.ROOT,
                "  -- %s, %ds of %d (last %ds)",
                s.title(),
                t,
                ticks,
                Math.min(windowTicks, t)),
            rows,
            window(timeline));
      }
    }
    Tick total = timeline.stream().reduce(Tick::plus).orElseThrow();
    Map<String, RowStats> scenarioRows = new LinkedHashMap<>();
    rows.forEach(r -> scenarioRows.put(r.name, r.takeScenario()));
    total =
        new Tick(total.at(), total.seconds(), scenarioRows, total.partnerCalls(), total.dbPeak());
    table.show(String.format(Locale.ROOT, "  -- %s: the whole %ds", s.title(), ticks), rows, total);
    table.keep();
    return new Result(s, total, timeline);
  }

  private Tick window(List<Tick> timeline) {
    int from = Math.max(0, timeline.size() - windowTicks);
    return timeline.subList(from, timeline.size()).stream().reduce(Tick::plus).orElseThrow();
  }

  private Tick collect(double at, long partnerCalls) {
    Map<String, RowStats> counts = new LinkedHashMap<>();
    rows.forEach(r -> counts.put(r.name, r.takeTick()));
    return new Tick(at, 1, counts, partnerCalls, takeDbPeak());
  }

  /** The application's own count of slow queries run at once since the last look; 0 if unknown. */
  private int takeDbPeak() {
    try {
      HttpRequest req =
          HttpRequest.newBuilder(URI.create(base + "/internal/stats"))
              .timeout(Duration.ofMillis(500))
              .build();
      Matcher m = PEAK.matcher(client.send(req, HttpResponse.BodyHandlers.ofString()).body());
      return m.find() ? Integer.parseInt(m.group(1)) : 0;
    } catch (java.io.IOException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  private static void sleepUntil(long deadline) throws InterruptedException {
    long left;
    while ((left = deadline - System.nanoTime()) > 0) {
      Thread.sleep(Math.max(1, left / 1_000_000));
    }
  }
}
