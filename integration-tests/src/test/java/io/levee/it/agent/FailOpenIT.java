package io.levee.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.RulesFile;
import io.levee.it.support.TestPaths;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * SPEC §1: a problem in the agent's own input is logged and the application runs unprotected. The
 * rules would limit {@code /limited/**} to one request an hour if they were (wrongly) applied.
 */
class FailOpenIT {

  @Test
  void runsUnprotectedWithOneLogLineWhenTheRulesFileIsMissing() {
    Path missing = TestPaths.workDir().resolve("no-such-rules.yaml");
    try (ForkedApp app =
        ForkedApp.of(TomcatApp.class).rules(missing).name("fail-open-missing").start()) {
      assertThat(statuses(app)).containsOnly(200);
      List<String> aboutTheFile =
          app.leveeLines().stream().filter(l -> l.contains("no-such-rules.yaml")).toList();
      assertThat(aboutTheFile).as(app.stderr()).hasSize(1);
      assertThat(app.stderr()).doesNotContain("\tat ");
    }
  }

  @Test
  void appliesNothingOfAnInvalidRulesFileAndSaysWhere() {
    String rules =
        """
        version: 1
        resources:
          - name: limited
            match: { servlet: { paths: ["/limited/**"] } }
            rate-limit: { rate: 1/h, burst: 1 }
          - name: typo
            match: { servlet: { paths: ["/other/**"] } }
            rate-limit: { rate: 1/h, burts: 1 }
        """;
    Path file = RulesFile.write("invalid-rules", rules);
    // given as a system property this time (SPEC §1: options also as -Dlevee.rules=)
    try (ForkedApp app =
        ForkedApp.of(TomcatApp.class)
            .agent("")
            .systemProperty("levee.rules", file.toString())
            .name("fail-open-invalid")
            .start()) {
      assertThat(statuses(app)).containsOnly(200);
      assertThat(app.leveeLines())
          .as(app.stderr())
          .anySatisfy(l -> assertThat(l).contains("invalid-rules.yaml:8:").contains("burts"));
      assertThat(app.stderr()).doesNotContain("\tat ");
    }
  }

  private static List<Integer> statuses(ForkedApp app) {
    AppClient client = new AppClient(app);
    return IntStream.range(0, 5).mapToObj(i -> client.get("/limited/x").statusCode()).toList();
  }
}
