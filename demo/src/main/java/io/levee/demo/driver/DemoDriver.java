package io.levee.demo.driver;

import io.levee.demo.partner.Partner;
import io.levee.testkit.JvmProcess;
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
 * plays the scenarios of {@link Scenarios} against it, and sums up what each protection did. Run
 * from the repository root; {@code run-demo.sh} builds everything and calls it.
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
    String endpoint = o.agent() || o.attach() ? "127.0.0.1:" + freePort() : null;
    String agentArg = agentArgument(o, endpoint, out);
    out.println();

    List<ScenarioRunner.Result> results = new ArrayList<>();
    ExecutorService httpThreads =
        Executors.newFixedThreadPool(4, r -> LoadGenerator.daemon(r, "http-client"));
    Path log = o.demoTarget().resolve("demo-app.log");
    try (Partner partner = Partner.start(0)) {
      out.println(
          "Starting the application"
              + (agentArg != null ? " with " + agentArg : "")
              + " (log: "
              + log
              + ")");
      try (AppProcess app = AppProcess.start(o.demoTarget(), agentArg, partner.url(), log, out)) {
        String base = "http://127.0.0.1:" + app.awaitReady(60);
        out.println("  ready at " + base + ", pid " + app.pid() + ", partner at " + partner.url());
        boolean protectedApp = agentArg != null;
        if (o.attach()) {
          protectedApp = attach(o, endpoint, app.pid(), out);
        }
        HttpClient client =
            HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2))
                .executor(httpThreads)
                .build();
        ObservedStatus observed = new ObservedStatus("pricing-partner", "sales-report");
        StatusSource status = protectedApp ? new AgentStatus(client, endpoint, observed) : observed;
        if (protectedApp) {
          out.println(
              "  the table's limit and state columns come from the agent's /status at http://"
                  + endpoint
                  + "/status");
        }
        Warmup.Compute compute = new Warmup(client, base).run(app.cores());
        out.printf(
            Locale.ROOT,
            "  warmed up; one computation = %d SHA-256 rounds (~%.0f ms of CPU),"
                + " at most %.0f/s on the %d core(s) the application may use%n",
            compute.rounds(),
            Warmup.TARGET_MILLIS,
            compute.capacityPerSecond(),
            app.cores());

        List<Row> rows = Scenarios.rows(compute.rounds());
        LiveTable table = new LiveTable(out, !o.plain(), rules, status);
        ScenarioRunner runner =
            new ScenarioRunner(rows, partner, client, base, table, out, !o.plain());
        List<Scenario> plan = Scenarios.plan(partner, compute.capacityPerSecond(), o.timeScale());
        try (LoadGenerator load = new LoadGenerator(client, base, rows)) {
          load.start();
          for (int i = 0; i < plan.size(); i++) {
            results.add(runner.run(plan.get(i), i + 1, plan.size()));
          }
        }
        List<String> agentLines = app.agentLines();
        if (protectedApp) {
          out.println();
          out.println("What the agent's own status command says at the end:");
          AttachHook.status(o.agentJar(), app.pid(), out);
        }
        out.println();
        out.println(
            "Summary" + (agentArg == null && !o.attach() ? " (no agent: nothing protected)" : ""));
        new Summary(results).lines().forEach(out::println);
        if (!agentLines.isEmpty()) {
          out.printf(Locale.ROOT, "%nWhat the agent logged (%d lines):%n", agentLines.size());
          agentLines.forEach(l -> out.println("  " + l));
        }
        out.println("The application's log: " + log);
      }
    } finally {
      httpThreads.shutdownNow();
    }
    out.printf(Locale.ROOT, "Demo finished in %.0f s.%n", (System.nanoTime() - began) / 1e9);
    System.exit(0);
  }

  /** The {@code -javaagent} option, or null to start the application without the agent. */
  private static String agentArgument(Options o, String endpoint, PrintStream out) {
    if (!o.agent() || o.attach()) {
      return null;
    }
    if (!Files.isRegularFile(o.agentJar())) {
      out.println("!! no agent at " + o.agentJar() + ": the application runs UNPROTECTED");
      return null;
    }
    return JvmProcess.agentOption(o.agentJar(), "rules=" + o.rules() + ",http=" + endpoint);
  }

  /** A port free now, for the agent's endpoint; the agent binds it a moment later. */
  private static int freePort() throws java.io.IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  // The runtime-attach hook: see AttachHook.
  private static boolean attach(Options o, String endpoint, long pid, PrintStream out) {
    out.println();
    out.println("Attaching Levee to the running application (pid " + pid + "), no restart:");
    return AttachHook.attach(o.agentJar(), o.rules(), endpoint, pid, out);
  }
}
