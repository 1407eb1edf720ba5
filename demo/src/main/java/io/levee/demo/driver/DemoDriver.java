package io.levee.demo.driver;

import io.levee.demo.partner.Partner;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The demo: starts the partner and the application (with the agent, without it, or attached later),
 * plays the scenarios of {@link Scenarios} against it, and sums up what each protection did.
 * Run from the repository root; {@code run-demo.sh} builds everything and calls it.
 */
public final class DemoDriver {
  private DemoDriver() {}

  public static void main(String[] args) throws Exception {
    long began = System.nanoTime();
    PrintStream out = System.out;
    Options o;
    try {
      o = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    RulesOverview rules = RulesOverview.load(o.rules(), out);
    if (rules == null) {
      System.exit(1);
    }
    out.println("Levee demo: a Tomcat 9 application with H2 and a pricing partner, under load.");
    out.println();
    out.println("Protections in " + o.rules() + ":");
    rules.lines().forEach(l -> out.println("  " + l));
    String agentArg = agentArgument(o, out);
    out.println();

    List<ScenarioRunner.Result> results = new ArrayList<>();
    ExecutorService httpThreads =
        Executors.newFixedThreadPool(4, r -> LoadGenerator.daemon(r, "http-client"));
    Path log = o.demoTarget().resolve("demo-app.log");
    try (Partner partner = Partner.start(0)) {
      out.println("Starting the application" + (agentArg != null ? " with " + agentArg : "")
          + " (log: " + log + ")");
      try (AppProcess app = AppProcess.start(o.demoTarget(), agentArg, partner.url(), log, out)) {
        String base = "http://127.0.0.1:" + app.awaitReady(60);
        out.println("  ready at " + base + ", pid " + app.pid() + ", partner at " + partner.url());
        if (o.attach()) {
          attach(o, app.pid(), out);
        }
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).executor(httpThreads).build();
        Warmup.Compute compute = new Warmup(client, base).run();
        out.printf(Locale.ROOT, "  warmed up; one computation = %d SHA-256 rounds (~%.0f ms of CPU),"
            + " about %.0f/s on this machine%n", compute.rounds(), Warmup.TARGET_MILLIS,
            compute.capacityPerSecond());

        List<Row> rows = Scenarios.rows(compute.rounds());
        LiveTable table = new LiveTable(out, !o.plain(), rules,
            new ObservedStatus("pricing-partner", "sales-report"));
        ScenarioRunner runner = new ScenarioRunner(rows, partner, client, base, table, out,
            !o.plain());
        List<Scenario> plan = Scenarios.plan(partner, compute.capacityPerSecond(), o.timeScale());
        try (LoadGenerator load = new LoadGenerator(client, base, rows)) {
          load.start();
          for (int i = 0; i < plan.size(); i++) {
            results.add(runner.run(plan.get(i), i + 1, plan.size()));
          }
        }
        List<String> agentLines = app.agentLines();
        out.println();
        out.println("Summary" + (agentArg == null && !o.attach() ? " (no agent: nothing protected)"
            : ""));
        new Summary(results).lines().forEach(out::println);
        long problems = agentLines.stream()
            .filter(l -> l.startsWith("[levee] WARN") || l.startsWith("[levee] ERROR")).count();
        out.printf(Locale.ROOT, "%nThe agent logged %d lines (%d warnings or errors); the"
            + " application's log is %s%n", agentLines.size(), problems, log);
      }
    } finally {
      httpThreads.shutdownNow();
    }
    out.printf(Locale.ROOT, "Demo finished in %.0f s.%n", (System.nanoTime() - began) / 1e9);
    System.exit(0);
  }

  /** The {@code -javaagent} option, or null to start the application without the agent. */
  private static String agentArgument(Options o, PrintStream out) {
    if (!o.agent() || o.attach()) {
      return null;
    }
    if (!Files.isRegularFile(o.agentJar())) {
      out.println("!! no agent at " + o.agentJar() + ": the application runs UNPROTECTED");
      return null;
    }
    return "-javaagent:" + o.agentJar() + "=rules=" + o.rules();
  }

  // The runtime-attach hook: see AttachHook.
  private static void attach(Options o, long pid, PrintStream out) {
    out.println();
    out.println("Attaching Levee to the running application (pid " + pid + "):");
    AttachHook.attach(o.agentJar(), o.rules(), pid, out);
  }
}
