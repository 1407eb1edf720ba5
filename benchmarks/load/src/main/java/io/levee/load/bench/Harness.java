package io.levee.load.bench;

import io.levee.load.gen.LimitReader;
import io.levee.load.gen.OpenLoop;
import io.levee.load.gen.Phase;
import io.levee.load.gen.Retries;
import io.levee.load.gen.Series;
import io.levee.load.gen.Stub;
import io.levee.testkit.JvmCommand;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What a benchmark run shares: the stub and the HTTP client (both in this, the generator's, JVM),
 * and how to start the application with a contender. Levee's rules are written here: for the
 * overload runs only the {@code system} rule with its defaults, the harness's own paths excluded,
 * answering 429 like every other contender. (Levee's default for {@code system} is 503, and Tomcat
 * closes the connection after any 503: each rejected client would reconnect, which costs the
 * overloaded server more than the reject itself. docs/BENCHMARKS.md has the numbers.)
 */
final class Harness implements AutoCloseable {
  static final String SYSTEM_RULES =
      "version: 1\nsystem:\n  exclude: [\"/bench/**\"]\n  adaptive: {}\n  on-block: { status: 429 }\n";

  final Options options;
  final Stub stub;
  final HttpClient client = OpenLoop.newClient();
  final int agentPort;
  final int appPort;

  Harness(Options options) throws IOException {
    this.options = options;
    this.stub = new Stub(freePort());
    this.appPort = freePort();
    this.agentPort = freePort();
  }

  AppProcess startApp(String contender, String label) throws Exception {
    return startApp(contender, label, rules(contender));
  }

  /**
   * Levee's rules for {@code contender}: the two Levees of the priorities scenario have rules of
   * their own (whatever {@code --levee-rules} says), and the others none.
   */
  private String rules(String contender) throws IOException {
    return switch (contender) {
      case "levee" ->
          options.leveeRules == null ? SYSTEM_RULES : Files.readString(options.leveeRules);
      case Priorities.RANKED -> Priorities.rules(true);
      case Priorities.UNRANKED -> Priorities.rules(false);
      default -> null;
    };
  }

  /** Starts the application; with {@code rules} (or for the contender "levee") under the agent. */
  AppProcess startApp(String contender, String label, String rules) throws Exception {
    Path log = options.out.resolve("logs").resolve(label + ".log");
    Files.createDirectories(log.getParent());
    String agent = null;
    if (rules != null || contender.startsWith("levee")) {
      if (options.agent == null) {
        throw new IllegalStateException(
            "--agent agent/target/levee-agent-*.jar is needed for " + label);
      }
      Path file = null;
      if (rules != null) {
        file = options.out.resolve("rules-" + label + ".yaml");
        Files.writeString(file, rules);
      }
      Path agentLog = options.out.resolve("logs").resolve(label + "-agent.log");
      agent =
          AppProcess.agentArg(
              options.agent, file == null ? null : file.toFile(), agentPort, agentLog);
    }
    JvmCommand jvm =
        AppProcess.command(
            options.appCpus,
            contender.startsWith("levee") ? "none" : contender,
            appPort,
            stub.port(),
            agent,
            log);
    Files.writeString(log, String.join(" ", jvm.commandLine()) + "\n");
    return AppProcess.start(jvm, appPort, log);
  }

  OpenLoop loop(AppProcess app, String contender, Retries retry) {
    LimitReader limits = null;
    if (contender != null && contender.startsWith("levee")) {
      limits = new LimitReader(client, "http://127.0.0.1:" + agentPort + "/status", true);
    } else if (contender != null) {
      limits = new LimitReader(client, app.base() + "/bench/limit", false);
    }
    return new OpenLoop(client, app.base(), stub, limits, retry);
  }

  /** A measured run and the collections the generator's JVM made during it (0 when all is well). */
  record Measured(Series series, long generatorGcs) {}

  /**
   * Plays {@code phases} after emptying the generator's heap. The generator runs with a young
   * generation larger than a run allocates (load-common.sh), so after that no collection pauses it
   * while it measures: on one CPU its serial collector paused 40-120 ms every few seconds, the
   * requests due in a pause were sent together after it, and each such burst showed as a dip in
   * every contender's goodput and a spike in its p99 that the server had not caused.
   */
  static Measured measure(OpenLoop loop, List<Phase> phases) throws InterruptedException {
    System.gc();
    long before = collections();
    Series series = loop.run(phases);
    return new Measured(series, collections() - before);
  }

  private static long collections() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
  }

  /**
   * A free port below the usual ephemeral range (32768-60999): the generator's thousands of client
   * connections take ephemeral ports, and one of them would otherwise hold the agent's port.
   */
  private static int freePort() throws IOException {
    for (int attempt = 0; attempt < 100; attempt++) {
      int port = 20_000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(12_000);
      try (ServerSocket s = new ServerSocket(port)) {
        return s.getLocalPort();
      } catch (IOException taken) {
        // try another
      }
    }
    throw new IOException("no free port in 20000-31999");
  }

  @Override
  public void close() {
    stub.close();
  }
}
