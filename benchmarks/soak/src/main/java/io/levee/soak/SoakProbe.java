package io.levee.soak;

import io.levee.demo.driver.AppProcess;
import io.levee.demo.partner.Partner;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What one attach costs the application under the soak's load, bucket by bucket: the demo
 * application started without the agent, its capacity measured as in the soak (or given), an
 * open-loop load at a share of it, then the agent attached with the first rules file and detached,
 * twice (the second attach finds the agent's classes already loaded). Prints for each command its
 * wall time and the CPU the application used meanwhile, every 100 ms around each attach, one row a
 * second overall, and how long the application took to catch up. {@code scripts/soak.sh --probe}.
 *
 * <p>Usage: {@code SoakProbe [--load PERCENT] [--capacity RATE] [--rules FILE] [--agent JAR]
 * [--demo-target DIR] [--cost | --backlog]}.
 */
public final class SoakProbe {
  private static final long GAP_MILLIS = 20_000;

  /** An answer slower than this means the application has not caught up yet. */
  private static final long CAUGHT_UP_MILLIS = 250;

  private SoakProbe() {}

  public static void main(String[] args) throws Exception {
    double load = 70;
    double capacity = 0;
    boolean cost = false;
    boolean backlog = false;
    Path rules = Path.of("benchmarks/soak/rules-a.yaml");
    Path agent = Path.of("agent/target/levee-agent.jar");
    Path demoTarget = Path.of("demo/target");
    for (int i = 0; i < args.length; i += 2) {
      if (args[i].equals("--cost") || args[i].equals("--backlog")) {
        cost |= args[i].equals("--cost");
        backlog |= args[i].equals("--backlog");
        i--;
        continue;
      }
      switch (args[i]) {
        case "--load" -> load = Double.parseDouble(args[i + 1]);
        case "--capacity" -> capacity = Double.parseDouble(args[i + 1]);
        case "--rules" -> rules = Path.of(args[i + 1]);
        case "--agent" -> agent = Path.of(args[i + 1]);
        case "--demo-target" -> demoTarget = Path.of(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    SoakDriver.partnerWithoutDelayedAcks();
    PrintStream out = System.out;
    ExecutorService httpThreads = Executors.newFixedThreadPool(4, r -> Daemon.of(r, "http-client"));
    ScheduledExecutorService sampler =
        Executors.newSingleThreadScheduledExecutor(r -> Daemon.of(r, "probe-sampler"));
    try (Partner partner = Partner.start(0);
        AppProcess app =
            SoakApp.start(
                demoTarget, null, partner.url(), SoakApp.OUT.resolve("soak-probe-app.log"), out)) {
      String base = "http://127.0.0.1:" + app.awaitReady(60);
      out.println(
          "Application (no agent) at "
              + base
              + ", pid "
              + app.pid()
              + ", on "
              + app.cores()
              + " core(s)");
      HttpClient client =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(SoakMix.TIMEOUT)
              .executor(httpThreads)
              .build();
      SoakCapacity sweep = new SoakCapacity(client, base, app.pid(), app.cores());
      if (backlog) {
        // An open-loop load that fell behind keeps thousands of requests open, each on its own
        // connection, far beyond Tomcat's 200 threads: does the application slow down then?
        sweep.warmUp();
        for (int clients : new int[] {200, 1000, 2000, 4000, 200}) {
          sweep.step(out, "bare", clients);
        }
        return;
      }
      if (cost) {
        cost(out, sweep, new SoakTarget(agent.toAbsolutePath(), app.pid()), rules);
        return;
      }
      if (capacity <= 0) {
        out.println("Measuring capacity with " + SoakMix.describe() + ":");
        capacity = sweep.measure(out);
      } else {
        sweep.warmUp();
      }
      double rate = capacity * load / 100;
      out.printf(
          Locale.ROOT,
          "Capacity %.0f requests/s; load %.0f%% of it, %.0f requests/s%n",
          capacity,
          load,
          rate);
      SoakTarget target = new SoakTarget(agent.toAbsolutePath(), app.pid());
      SoakTimeline timeline = new SoakTimeline(app.pid(), 5 * GAP_MILLIS / 1000 + 5);
      try (SoakLoad soak = new SoakLoad(base, rate)) {
        soak.timeline(timeline);
        sampler.scheduleAtFixedRate(
            () -> timeline.sample(soak.outstanding()),
            0,
            SoakTimeline.BUCKET_MILLIS,
            TimeUnit.MILLISECONDS);
        soak.start();
        long start = System.currentTimeMillis();
        double[] attachedAt = new double[2];
        SoakThreads threads = new SoakThreads(app.pid());
        List<String> cpu = new ArrayList<>();
        for (int n = 0; n < 2; n++) {
          sleepUntil(start + (2 * n + 1) * GAP_MILLIS - 5_000);
          Map<String, Long> bare = threads.snapshot();
          sleepUntil(start + (2 * n + 1) * GAP_MILLIS);
          Map<String, Long> before = threads.snapshot();
          cpu.add(delta("5 s before attach " + (n + 1), bare, before));
          attachedAt[n] = timeline.seconds();
          command(
              timeline, target, "attach", "--rules", rules.toAbsolutePath().toString(), "--force");
          Map<String, Long> attached = threads.snapshot();
          cpu.add(delta("during attach " + (n + 1), before, attached));
          Thread.sleep(3_000);
          cpu.add(dump(target, "3 s after attach " + (n + 1)));
          Map<String, Long> later = threads.snapshot();
          cpu.add(delta("from the end of attach " + (n + 1) + " 3 s on", attached, later));
          sleepUntil(start + (2 * n + 2) * GAP_MILLIS);
          cpu.add(delta("then until the detach", later, threads.snapshot()));
          command(timeline, target, "detach");
        }
        sleepUntil(start + 5 * GAP_MILLIS);
        soak.timeline(null);
        report(out, timeline, attachedAt);
        cpu.forEach(out::print);
      }
    } finally {
      sampler.shutdownNow();
      httpThreads.shutdownNow();
    }
    System.exit(0);
  }

  /**
   * What a request costs the application with the agent in, at the same closed-loop concurrency:
   * bare, attached (after the JIT settled again), and detached.
   */
  private static void cost(PrintStream out, SoakCapacity sweep, SoakTarget target, Path rules)
      throws InterruptedException {
    sweep.warmUp();
    for (int clients : new int[] {64, 200}) {
      sweep.step(out, "bare", clients);
      sweep.step(out, "bare", clients);
    }
    SoakTarget.Command c =
        target.agent("attach", "--rules", rules.toAbsolutePath().toString(), "--force");
    out.println("  attach: " + (c.ok() ? "returned" : "FAILED") + " after " + c.millis() + " ms");
    sweep.warmUp();
    sweep.warmUp();
    for (int clients : new int[] {64, 200}) {
      sweep.step(out, "agent in", clients);
      sweep.step(out, "agent in", clients);
    }
    c = target.agent("detach");
    out.println("  detach: " + (c.ok() ? "returned" : "FAILED") + " after " + c.millis() + " ms");
    sweep.warmUp();
    for (int clients : new int[] {64, 200}) {
      sweep.step(out, "detached", clients);
    }
  }

  private static void command(SoakTimeline timeline, SoakTarget target, String... args) {
    timeline.event(args[0] + " starts");
    long cpu = timeline.cpuTicks();
    SoakTarget.Command c = target.agent(args);
    long used = timeline.cpuTicks() - cpu;
    timeline.event(
        String.format(
            Locale.ROOT,
            "%s %s after %d ms; the application used %d ms of" + " CPU meanwhile",
            args[0],
            c.ok() ? "returned" : "FAILED",
            c.millis(),
            used * 10));
    if (!c.ok()) {
      timeline.event(c.output());
    }
  }

  private static void report(PrintStream out, SoakTimeline timeline, double[] attachedAt) {
    out.println();
    timeline.events().forEach(e -> out.println("  " + e));
    double before = timeline.meanUnanswered(attachedAt[0] - 10, attachedAt[0]);
    long backlog = Math.max(20, Math.round(3 * before));
    for (int n = 0; n < attachedAt.length; n++) {
      double at = attachedAt[n];
      out.printf(
          Locale.ROOT,
          "%nAttach %d at %.1f s: longest silence %.1f s; caught up (a second"
              + " with no answer over %d ms and under %d unanswered) after %s%n",
          n + 1,
          at,
          timeline.longestSilence(at, at + GAP_MILLIS / 1000.0),
          CAUGHT_UP_MILLIS,
          backlog,
          caughtUp(timeline.recovery(at, CAUGHT_UP_MILLIS, backlog)));
      timeline.print(out, at - 0.5, at + 6);
    }
    out.printf(
        Locale.ROOT,
        "%nEvery second (unanswered before the first attach: %.0f on" + " average):%n",
        before);
    timeline.printSeconds(out);
  }

  private static String delta(String title, Map<String, Long> before, Map<String, Long> after) {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    double seconds = (after.get(SoakThreads.AT) - before.get(SoakThreads.AT)) / 1000.0;
    SoakThreads.printDelta(
        new PrintStream(b, true),
        String.format(Locale.ROOT, "%s (%.1f s)", title, seconds),
        before,
        after);
    return b.toString();
  }

  /** What Tomcat's request threads are doing: their top frames, counted. */
  private static String dump(SoakTarget target, String title) {
    String text = target.threadDump();
    Map<String, Integer> tops = new TreeMap<>();
    boolean request = false;
    int frames = 0;
    StringBuilder key = new StringBuilder();
    for (String line : text.split("\n")) {
      if (line.startsWith("\"")) {
        if (request && key.length() > 0) {
          tops.merge(key.toString(), 1, Integer::sum);
        }
        request = line.contains("-exec-");
        frames = 0;
        key.setLength(0);
      } else if (request && line.strip().startsWith("at ") && frames < 4) {
        key.append(frames++ == 0 ? "" : " < ").append(line.strip().substring(3));
      }
    }
    if (request && key.length() > 0) {
      tops.merge(key.toString(), 1, Integer::sum);
    }
    StringBuilder b = new StringBuilder("  Request threads " + title + ", by top frames:\n");
    tops.entrySet().stream()
        .sorted((x, y) -> y.getValue() - x.getValue())
        .limit(8)
        .forEach(
            e -> b.append(String.format(Locale.ROOT, "    %4d  %s%n", e.getValue(), e.getKey())));
    return b.toString();
  }

  private static String caughtUp(double seconds) {
    return seconds < 0 ? "NEVER" : String.format(Locale.ROOT, "%.1f s", seconds);
  }

  private static void sleepUntil(long millis) throws InterruptedException {
    long wait = millis - System.currentTimeMillis();
    if (wait > 0) {
      Thread.sleep(wait);
    }
  }
}
