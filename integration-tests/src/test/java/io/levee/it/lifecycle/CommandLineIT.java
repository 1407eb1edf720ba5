package io.levee.it.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.Jdk;
import io.levee.it.support.RulesFile;
import io.levee.it.support.TestPaths;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The command line against the packaged jar where no agent gets in: {@code validate}, a usage
 * error, and a JVM that refuses agents loaded at run time.
 */
class CommandLineIT {
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
    assertThat(result.out()).isEqualTo("OK: 1 resources\n");
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
    Process idle =
        new ProcessBuilder(
                jdk25.java().toString(),
                "-XX:-EnableDynamicAgentLoading",
                "-cp",
                TestPaths.applicationClassPath(),
                Idle.class.getName())
            .redirectError(TestPaths.workDir().resolve("cli-refusing.stderr.log").toFile())
            .start();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(idle.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("READY 0");
      String pid = String.valueOf(idle.pid());

      Cli.Result attach = Cli.run(jdk25, "attach", pid);

      assertThat(attach.exit()).as("%s", attach).isEqualTo(1);
      assertThat(attach.err())
          .contains("refuses agents loaded at run time")
          .contains("-XX:+EnableDynamicAgentLoading");
      assertThat(Cli.run(jdk25, "list").out())
          .containsPattern("(?m)^" + pid + " +no +" + Idle.class.getName());
    } finally {
      idle.destroy();
      idle.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void statusOfAJvmWithoutLeveeSaysHowToAttach() throws Exception {
    Process idle =
        new ProcessBuilder(
                List.of(
                    jdk.java().toString(),
                    "-cp",
                    TestPaths.applicationClassPath(),
                    Idle.class.getName()))
            .start();
    try {
      new BufferedReader(new InputStreamReader(idle.getInputStream(), StandardCharsets.UTF_8))
          .readLine();
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
      idle.destroy();
      idle.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
