package io.levee.it.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.RulesFile;
import io.levee.it.support.TestPaths;
import io.levee.testkit.JvmCommand;
import io.levee.testkit.JvmProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What docs/rules.md says of a {@code CONNECT} rule at start-up, on the corpus's Spring Boot 3
 * application (Hibernate over HikariCP, then {@code data.sql}), started without its web server so
 * that a successful start ends by itself: a rate limit whose burst is smaller than the connections
 * the start takes refuses one and the application does not start; one sized as the recipe says lets
 * it start.
 */
class ConnectAtStartIT {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  @Test
  void aConnectLimitBelowWhatTheStartTakesStopsTheStart() {
    Outcome start = start("connect-refused", "rate-limit: { rate: 1/h, burst: 1 }");

    assertThat(start.exit()).as(start.stderr()).isNotZero();
    assertThat(start.stdout())
        .contains("Application run failed")
        .contains("levee: connections blocked the call (rate-limit)")
        .doesNotContain("Started ");
  }

  @Test
  void aConnectLimitWithRoomForTheStartLetsItStart() {
    Outcome start = start("connect-sized", "rate-limit: { rate: 50/s, burst: 20 }");

    assertThat(start.exit()).as(start.stdout() + start.stderr()).isZero();
    assertThat(start.stdout()).contains("Started ").doesNotContain("levee:");
  }

  private static Outcome start(String name, String policy) {
    Path rules =
        RulesFile.write(
            name,
            "version: 1\n"
                + "resources:\n"
                + "  - name: connections\n"
                + "    match: { jdbc: { operations: [CONNECT] } }\n"
                + "    "
                + policy
                + "\n");
    Path jar =
        TestPaths.root()
            .resolve("integration-tests/corpus-apps/spring-boot-3/target/spring-boot-3-app.jar");
    JvmCommand jvm =
        JvmProcess.java()
            .options("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
            .agent(TestPaths.agentJar(), "rules=" + rules)
            .jar(jar)
            .args("--spring.main.web-application-type=none");
    return Outcome.run(name, jvm, Way.dir(), Map.of(), TIMEOUT);
  }
}
