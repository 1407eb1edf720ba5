package io.levee.it.corpus;

import io.levee.it.support.TestPaths;
import io.levee.testkit.JvmProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The ways the transparency corpus runs a piece of software: without the agent, with the agent and
 * no rules, with the agent and {@code mode: monitor} rules that match every page, URL and statement
 * and, through {@code method} resources, the methods of the libraries the corpus runs ({@link
 * MethodResources}), and would block most of their calls, so that every decision the agent can make
 * is made; and the same with a fault forced at every point where the agent's code runs inside a
 * call ({@code -Dlevee.inject-faults=all}). The software must not be able to tell them apart.
 *
 * <p>The agent logs at debug level to a file of its own ({@link #agentLog}), so that the software's
 * own stdout and stderr are compared as they are, and the log can be searched for the agent's
 * trouble.
 */
public enum Way {
  PLAIN,
  AGENT,
  MONITOR,
  FAULTS;

  /** The bootstrap's fault switch ({@code io.levee.bootstrap.Faults}). */
  static final String FAULT_PROPERTY = "levee.inject-faults";

  /** A rate of 1/s with a burst of 1 and one call at a time: in monitor mode it only counts. */
  static final String LIMITS =
      "    rate-limit: { rate: 1/s, burst: 1 }\n"
          + "    concurrency: { max: 1 }\n"
          + "    circuit-breaker: { failure-rate: 1%, minimum-calls: 1, window: 1s }\n";

  /**
   * The Redis of the test command, when there is one: the partner calls' rate limit is then shared
   * through it ({@code scope: cluster}), so that every subject also runs with the agent's settling
   * thread and its relocated Redis client beside the software's own libraries.
   */
  private static final String REDIS =
      "1".equals(System.getenv("LEVEE_SKIP_REDIS")) ? null : System.getenv("LEVEE_REDIS_URL");

  static final String MONITOR_RULES =
      "version: 1\n"
          + "settings: { mode: monitor, reload: 0"
          // A settle a second: its Redis timeout is half of that, so a subject that starves the
          // machine's two cores (a Maven build) is unlikely to make a Redis answer look lost.
          + (REDIS == null ? "" : ", cluster: { redis: \"" + REDIS + "\", name: corpus, sync: 1s }")
          + " }\n"
          + "resources:\n"
          + "  - name: every-page\n"
          + "    match: { servlet: { paths: [\"/**\"] } }\n"
          + LIMITS
          + "  - name: every-partner\n"
          + "    match: { http: { urls: [\"*://**:*/**\"] } }\n"
          + (REDIS == null ? LIMITS : LIMITS.replace("burst: 1 }", "burst: 1, scope: cluster }"))
          + "  - name: every-statement\n"
          + "    match: { jdbc: { urls: [\"jdbc:**\"] } }\n"
          + LIMITS
          + "    adaptive: { min-limit: 1, max-limit: 2 }\n"
          + MethodResources.YAML;

  /** How many resources {@link #MONITOR_RULES} holds, as the agent's start-up line counts them. */
  static final long MONITOR_RESOURCES =
      MONITOR_RULES.lines().filter(l -> l.startsWith("  - name: ")).count();

  /**
   * The JVM options of this way, its agent's log in {@link #agentLog}; none for {@link #PLAIN}.
   * Give them to the software as it takes JVM options (the command line, {@code MAVEN_OPTS}, {@code
   * CATALINA_OPTS}), each as one argument.
   */
  public List<String> jvmOptions(String subject) {
    return jvmOptions(subject, List.of());
  }

  /** {@link #jvmOptions(String)} with {@code agentOptions} added to the agent's, if any. */
  public List<String> jvmOptions(String subject, List<String> agentOptions) {
    List<String> options = new ArrayList<>();
    if (this == FAULTS) {
      options.add("-D" + FAULT_PROPERTY + "=all");
    }
    if (this != PLAIN) {
      options.add(agentOption(subject, agentOptions));
    }
    return options;
  }

  /** {@link #jvmOptions} as one string, for a variable such as {@code MAVEN_OPTS}. */
  public String jvmOptionsLine(String subject) {
    return String.join(" ", jvmOptions(subject));
  }

  private String agentOption(String subject, List<String> more) {
    Path log = agentLog(subject);
    String options = "log=debug,log-file=" + log;
    if (this == MONITOR || this == FAULTS) {
      options += ",rules=" + monitorRules();
    }
    for (String option : more) {
      options += "," + option;
    }
    try {
      Files.deleteIfExists(log);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return JvmProcess.agentOption(TestPaths.agentJar(), options);
  }

  /** Where the agent logs when {@code subject} runs this way. */
  public Path agentLog(String subject) {
    return dir().resolve(subject + "-" + name().toLowerCase() + ".levee.log");
  }

  /** The agent's log of {@code subject} run this way; empty for {@link #PLAIN}. */
  public String agentLogText(String subject) {
    return this == PLAIN ? "" : Processes.read(agentLog(subject));
  }

  /** A work directory for the corpus: logs, rules, unpacked distributions' scratch copies. */
  public static Path dir() {
    try {
      return Files.createDirectories(TestPaths.workDir().resolve("corpus"));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The file of {@link #MONITOR_RULES}. Synchronized: subjects that run side by side must not read
   * it while another writes it.
   */
  static synchronized Path monitorRules() {
    Path rules = dir().resolve("monitor-everything.yaml");
    try {
      // Written again when the rules changed, so that a work directory left by an older build
      // cannot run the corpus with the rules of that build.
      if (!Files.exists(rules)
          || !Files.readString(rules, StandardCharsets.UTF_8).equals(MONITOR_RULES)) {
        Files.writeString(rules, MONITOR_RULES, StandardCharsets.UTF_8);
      }
      return rules.toAbsolutePath();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
