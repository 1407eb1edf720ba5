package io.levee.soak;

import io.levee.demo.driver.AppProcess;
import io.levee.demo.partner.Partner;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The soak (issue 8): the demo application started WITHOUT the agent, its capacity measured, then
 * an open-loop load at a share of it (70 % by default) for N minutes. Minute 0 runs bare; in every
 * later minute the agent is attached with one rules file (second 0), switched to another with
 * {@code reload} (second 20), asked for its {@code status} (second 30) and detached (second 40); at
 * second 50 a full GC and a reading of heap, threads and classes. Writes and prints the report,
 * exits 1 if a request failed because of the agent or heap, threads or classes grew, 3 if the run
 * proves nothing because the application timed out without the agent too. {@code scripts/soak.sh}
 * builds everything and calls it.
 */
public final class SoakDriver {
  private static final long MINUTE_MILLIS = 60_000;

  private SoakDriver() {}

  public static void main(String[] args) throws Exception {
    SoakOptions o;
    try {
      o = SoakOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    partnerWithoutDelayedAcks();
    PrintStream out = System.out;
    ExecutorService httpThreads = Executors.newFixedThreadPool(4, r -> Daemon.of(r, "http-client"));
    Path log = SoakApp.OUT.resolve("soak-app.log");
    int status;
    try (Partner partner = Partner.start(0);
        AppProcess app =
            SoakApp.start(o.demoTarget(), o.startAgentArg(), partner.url(), log, out)) {
      String base = "http://127.0.0.1:" + app.awaitReady(60);
      out.println(
          "Application ("
              + (o.dormant() ? "agent dormant: enabled=false" : "no agent")
              + ") at "
              + base
              + ", pid "
              + app.pid()
              + ", on JDK "
              + Runtime.version().feature()
              + ", "
              + app.cores()
              + " core(s); log "
              + log);
      HttpClient client =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(SoakMix.TIMEOUT)
              .executor(httpThreads)
              .build();
      out.println("Measuring capacity with " + SoakMix.describe() + ":");
      SoakCapacity sweep = new SoakCapacity(client, base, app.pid(), app.cores());
      double capacity = sweep.measure(out);
      double rate = capacity * o.loadPercent() / 100;
      out.printf(
          Locale.ROOT,
          "Capacity %.0f requests/s; soaking at %.0f%% of it, %.0f requests/s,"
              + " for %d minute(s) after a bare minute 0%n",
          capacity,
          o.loadPercent(),
          rate,
          o.minutes());
      List<SoakReport.Minute> minutes = new ArrayList<>();
      SoakTarget target = new SoakTarget(o.agentJar(), app.pid());
      Instant began = Instant.now();
      try (SoakLoad load = new SoakLoad(base, rate)) {
        load.start();
        long start = System.currentTimeMillis();
        for (int m = 0; m <= o.minutes(); m++) {
          SoakReport.Minute minute =
              m == 0
                  ? bare(target, load, start)
                  : cycle(o, target, load, start + m * MINUTE_MILLIS, m);
          minutes.add(minute);
          out.printf(
              Locale.ROOT,
              "  minute %d: %d sent, %d failed with the agent in, %d without;"
                  + " p99 %.0f ms; heap %.1f MB, %d threads, %d classes%n",
              m,
              minute.stats().sent(),
              minute.stats().failedWithAgent(),
              minute.stats().failedWithout(),
              minute.stats().p99(),
              minute.sample().heapMb(),
              minute.sample().threads(),
              minute.sample().liveClasses());
        }
      }
      SoakReport report = new SoakReport(minutes);
      String header =
          String.format(
              Locale.ROOT,
              "Soak of %s: %d minute(s) at %.0f%% of a measured"
                  + " capacity of %.0f requests/s (%.0f requests/s, open loop), started %s.%nJDK %d; the"
                  + " application started %s.%nTraffic: %s."
                  + " A request failed = non-2xx, connection error or no answer within %d s.%n%n"
                  + "Capacity (a closed-loop sweep, then the highest open-loop rate whose every request succeeded"
                  + " with a p99 within %.0f ms):%n%n```%n%s```%n",
              base,
              o.minutes(),
              o.loadPercent(),
              capacity,
              rate,
              began,
              Runtime.version().feature(),
              o.dormant() ? "with the agent dormant (enabled=false)" : "without an agent",
              SoakMix.describe(),
              SoakMix.TIMEOUT.toSeconds(),
              SoakCapacity.OPEN_P99_MILLIS,
              sweep.table());
      String text = report.markdown(header) + agentWarnings(app.agentLines());
      Files.writeString(o.report(), text);
      out.println();
      out.println(text);
      out.println("Report written to " + o.report());
      status = report.exitStatus();
    } finally {
      httpThreads.shutdownNow();
    }
    System.exit(status);
  }

  /**
   * The partner runs on the JDK's HTTP server, which writes an answer's headers and body apart;
   * with Nagle's algorithm on, the body then waits for the application's delayed ACK (~40 ms on
   * Linux), so every quote took 60 ms instead of 20 and the closed-loop sweep measured that wait,
   * not the application. Read once, when the server's classes load; an explicit {@code
   * -Dsun.net.httpserver.nodelay=false} brings the old behaviour back.
   */
  static void partnerWithoutDelayedAcks() {
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
  }

  private static SoakReport.Minute bare(SoakTarget target, SoakLoad load, long start)
      throws Exception {
    sleepUntil(start + 50_000);
    SoakTarget.Sample sample = target.sample();
    sleepUntil(start + MINUTE_MILLIS);
    return new SoakReport.Minute(0, load.takeMinute(), sample, null, null, null, 0);
  }

  private static SoakReport.Minute cycle(
      SoakOptions o, SoakTarget target, SoakLoad load, long start, int index) throws Exception {
    sleepUntil(start);
    load.agentIn();
    SoakTarget.Command attach =
        target.agent(
            "attach",
            "--rules",
            o.rulesA().toString(),
            "--http",
            "127.0.0.1:" + freePort(),
            "--force");
    sleepUntil(start + 20_000);
    SoakTarget.Command reload = target.agent("reload", "--rules", o.rulesB().toString());
    sleepUntil(start + 30_000);
    SoakTarget.Command status = target.agent("status");
    sleepUntil(start + 40_000);
    SoakTarget.Command detach = target.agent("detach");
    load.agentOut();
    sleepUntil(start + 50_000);
    SoakTarget.Sample sample = target.sample();
    sleepUntil(start + MINUTE_MILLIS);
    for (SoakTarget.Command c : List.of(attach, reload, status, detach)) {
      if (!c.ok()) {
        System.out.println("  minute " + index + ": command failed:\n" + c.output());
      }
    }
    return new SoakReport.Minute(
        index, load.takeMinute(), sample, attach, reload, detach, passed(status.output()));
  }

  /** The calls the agent admitted, summed over the resources of a {@code status} table. */
  static long passed(String statusTable) {
    int column = -1;
    long sum = 0;
    for (String line : statusTable.split("\n")) {
      String[] cells = line.strip().split("\\s+");
      if (column < 0) {
        column = List.of(cells).indexOf("PASSED");
      } else if (cells.length > column && !cells[0].equals("system")) {
        sum += Long.parseLong(cells[column]);
      }
    }
    return column < 0 ? -1 : sum;
  }

  private static String agentWarnings(List<String> agentLines) {
    List<String> bad =
        agentLines.stream().filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")).toList();
    StringBuilder b =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%nThe agent logged %d lines, %d of them WARN or ERROR%n",
                agentLines.size(),
                bad.size()));
    bad.stream().limit(10).forEach(l -> b.append("    ").append(l).append('\n'));
    return b.toString();
  }

  private static void sleepUntil(long millis) throws InterruptedException {
    long wait = millis - System.currentTimeMillis();
    if (wait > 0) {
      Thread.sleep(wait);
    }
  }

  private static int freePort() throws java.io.IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
