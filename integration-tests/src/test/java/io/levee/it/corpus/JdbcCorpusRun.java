package io.levee.it.corpus;

import io.levee.it.apps.corpus.jdbc.Combination;
import io.levee.it.apps.corpus.jdbc.Database;
import io.levee.it.apps.corpus.jdbc.JdbcCorpusApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.TestPaths;
import io.levee.testkit.JvmCommand;
import io.levee.testkit.JvmProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One run of {@link JdbcCorpusApp} in a JVM of its own, over every combination whose database can
 * be had: the in-process ones always; PostgreSQL and MariaDB as {@code run-tests.sh} starts them
 * ({@code LEVEE_PG_*}, {@code LEVEE_MARIADB_*}). A server that is missing fails the run, unless its
 * {@code LEVEE_SKIP_PG=1} / {@code LEVEE_SKIP_MARIADB=1} leaves its combinations out on purpose.
 */
final class JdbcCorpusRun {
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  private JdbcCorpusRun() {}

  /** The combinations to run: all but those of a server skipped on purpose. */
  static List<Combination> combinations() {
    Set<Database.Server> skipped = EnumSet.noneOf(Database.Server.class);
    for (Database.Server server : Database.Server.values()) {
      if (server.skipped()) {
        skipped.add(server);
      } else if (server.url() == null || server.url().isBlank()) {
        throw new IllegalStateException(
            server.env
                + "_URL is not set: run ./run-tests.sh (it starts a throwaway server), export "
                + server.env
                + "_URL/_USER/_PASSWORD for a server of your own, or set "
                + server.skip
                + "=1 to leave its combinations out");
      }
    }
    return Combination.ALL.stream()
        .filter(c -> c.database().needs() == null || !skipped.contains(c.database().needs()))
        .collect(Collectors.toList());
  }

  /**
   * Runs the application over {@code combinations} with {@code jvmOptions} (the agent's, if any).
   */
  static Outcome run(String id, List<String> jvmOptions, List<Combination> combinations) {
    JvmCommand jvm =
        JvmProcess.java(Jdk.current().home())
            // A short run is start-up bound: without the optimizing compiler it costs a third
            // less CPU.
            .options("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
            .options(jvmOptions)
            .main(TestPaths.applicationClassPath(), JdbcCorpusApp.class.getName());
    combinations.forEach(c -> jvm.args(c.name()));
    return Outcome.run(id, jvm, Way.dir(), serverEnv(), TIMEOUT);
  }

  /** The servers' coordinates, which {@link Outcome#run} does not pass on by itself. */
  private static Map<String, String> serverEnv() {
    Map<String, String> env = new HashMap<>();
    for (Database.Server server : Database.Server.values()) {
      for (String suffix : List.of("_URL", "_USER", "_PASSWORD")) {
        String value = System.getenv(server.env + suffix);
        if (value != null) {
          env.put(server.env + suffix, value);
        }
      }
    }
    return env;
  }

  /** The application's stdout cut at its {@code == name} headers: name to the lines under it. */
  static Map<String, List<String>> sections(String stdout) {
    Map<String, List<String>> sections = new LinkedHashMap<>();
    List<String> current = null;
    for (String line : stdout.split("\n", -1)) {
      if (line.startsWith("== ")) {
        current = new ArrayList<>();
        sections.put(line.substring(3), current);
      } else if (current != null && !line.isEmpty()) {
        current.add(line);
      }
    }
    return sections;
  }
}
