package io.levee.it.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.Jdk;
import io.levee.it.support.RulesFile;
import io.levee.it.support.TestPaths;
import io.levee.testkit.JvmProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The command line against the packaged jar where no agent gets in: {@code validate}, a usage
 * error, and a JVM that refuses agents loaded at run time.
 */
class CommandLineIT {
  private static final Pattern READY = Pattern.compile("READY 0");
  private static final Duration START = Duration.ofSeconds(30);
  private static final Duration STOP = Duration.ofSeconds(10);
  private final Jdk jdk = Jdk.current();

  @Test
  void validateAcceptsAGoodFile() {
    Path good =
        RulesFile.write(
            "cli-good",
            """
            version: 1
            resources:
              - name: api
                match: { http: { urls: ["http://api/**"] } }
                concurrency: { max: 5 }
            """);

    Cli.Result result = Cli.run(jdk, "validate", good.toString());

    assertThat(result.exit()).as("%s", result).isZero();
    assertThat(result.out()).isEqualTo("OK: 1 resource\n");
  }

  @Test
  void explainNamesTheNearMissOfACallNoResourceMatches() {
    Path rules =
        RulesFile.write(
            "cli-explain",
            """
            version: 1
            resources:
              - name: partner
                match: { http: { urls: ["*://*/**"] } }
                concurrency: { max: 5 }
            """);

    Cli.Result miss = Cli.run(jdk, "explain", rules.toString(), "http://127.0.0.1:19090/api");
    Cli.Result hit = Cli.run(jdk, "explain", rules.toString(), "http://127.0.0.1/api");

    assertThat(miss.exit()).as("%s", miss).isEqualTo(1);
    assertThat(miss.out())
        .startsWith("GET http://127.0.0.1:19090/api: no resource")
        .contains("partner: `*://*/**` names no port");
    assertThat(hit.exit()).as("%s", hit).isZero();
    assertThat(hit.out()).startsWith("GET http://127.0.0.1/api: resource partner (http,");
  }

  @Test
  void versionNamesTheBuiltAgent() {
    Cli.Result result = Cli.run(jdk, "--version");

    assertThat(result.exit()).as("%s", result).isZero();
    assertThat(result.out()).matches("Levee \\d+\\.\\d+\\.\\d+[-.\\w]*\n");
  }

  @Test
  void validatePrintsEachErrorWithLineAndColumnAndFails() {
    Path bad =
        RulesFile.write(
            "cli-bad",
            """
            version: 1
            resources:
              - name: api
                match: { http: { urls: ["http://api/**"] } }
                concurency: { max: 5 }
              - name: api
                match: { http: { urls: ["http://api/**"] } }
                rate-limit: { rate: fast }
            """);

    Cli.Result result = Cli.run(jdk, "validate", bad.toString());

    assertThat(result.exit()).as("%s", result).isEqualTo(1);
    assertThat(result.out().lines())
        .hasSizeGreaterThanOrEqualTo(3)
        .allMatch(line -> line.matches("\\Q" + bad + "\\E:\\d+:\\d+: .+"))
        .anyMatch(line -> line.startsWith(bad + ":5:5: resources[0].concurency: unknown key"))
        .anyMatch(line -> line.startsWith(bad + ":8:"));
  }

  @Test
  void aUsageErrorExitsWithTwo() {
    Cli.Result result = Cli.run(jdk, "attach", "not-a-pid");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("'not-a-pid' is not a process id");
  }

  @Test
  void aJvmThatRefusesDynamicAgentsGetsTheFixAndStaysWithoutLevee() throws Exception {
    Jdk jdk25 = Jdk.require(25);
    JvmProcess idle =
        JvmProcess.java(jdk25.home())
            .options("-XX:-EnableDynamicAgentLoading")
            .main(TestPaths.applicationClassPath(), Idle.class.getName())
            .output(
                TestPaths.workDir().resolve("cli-refusing.stdout.log"),
                TestPaths.workDir().resolve("cli-refusing.stderr.log"))
            .ready(READY)
            .start();
    try {
      assertThat(idle.awaitReady(START)).isPresent();
      String pid = String.valueOf(idle.pid());

      Cli.Result attach = Cli.run(jdk25, "attach", pid);

      assertThat(attach.exit()).as("%s", attach).isEqualTo(1);
      assertThat(attach.err())
          .contains("refuses agents loaded at run time")
          .contains("-XX:+EnableDynamicAgentLoading");
      assertThat(Cli.run(jdk25, "list").out())
          .containsPattern("(?m)^" + pid + " +no +" + Idle.class.getName());
    } finally {
      idle.stop(STOP);
    }
  }

  @Test
  void statusOfAJvmWithoutLeveeSaysHowToAttach() throws Exception {
    JvmProcess idle =
        JvmProcess.java(jdk.home())
            .main(TestPaths.applicationClassPath(), Idle.class.getName())
            .output(
                TestPaths.workDir().resolve("cli-status-idle.stdout.log"),
                TestPaths.workDir().resolve("cli-status-idle.stderr.log"))
            .ready(READY)
            .start();
    try {
      assertThat(idle.awaitReady(START)).isPresent();
      String pid = String.valueOf(idle.pid());

      Cli.Result status = Cli.run(jdk, "status", pid);

      assertThat(status.exit()).isEqualTo(1);
      assertThat(status.err())
          .isEqualTo(
              "levee: Levee is not running in process "
                  + pid
                  + "; attach it first with: java -jar levee-agent.jar attach "
                  + pid
                  + " --rules FILE\n");
    } finally {
      idle.stop(STOP);
    }
  }
}
