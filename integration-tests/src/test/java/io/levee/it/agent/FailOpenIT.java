package io.levee.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.RulesFile;
import io.levee.it.support.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * SPEC §1: a problem in the agent's own input is logged and the application runs unprotected. The
 * rules would limit {@code /limited/**} to one request an hour if they were (wrongly) applied.
 *
 * <p>An application that answers as usual proves nothing by itself: the agent might not be in it at
 * all. So each case also shows the agent was there and met the fault (its log line about it), and
 * then mends the file: the watcher applies it and the same requests are limited at once, so the
 * earlier answers were the agent failing open, in a JVM where it could have blocked them.
 */
class FailOpenIT {
  private static final String VALID =
      """
      version: 1
      resources:
        - name: limited
          match: { servlet: { paths: ["/limited/**"] } }
          rate-limit: { rate: 1/h, burst: 1 }
      """;

  @Test
  void runsUnprotectedWithOneLogLineWhenTheRulesFileIsMissing() throws Exception {
    Path missing = TestPaths.workDir().resolve("no-such-rules.yaml");
    Files.deleteIfExists(missing);
    try (ForkedApp app =
        ForkedApp.of(TomcatApp.class).rules(missing).name("fail-open-missing").start()) {
      answersAsWithoutTheAgent(app);
      List<String> aboutTheFile =
          app.leveeLines().stream().filter(l -> l.contains("no-such-rules.yaml")).toList();
      assertThat(aboutTheFile).as(app.stderr()).hasSize(1);
      assertThat(aboutTheFile.get(0)).contains("ERROR").contains("not found: protecting nothing");
      assertThat(app.stderr()).doesNotContain("\tat ");

      write(missing, VALID);
      limitsOnceTheFileIsMended(app);
    } finally {
      Files.deleteIfExists(missing);
    }
  }

  @Test
  void appliesNothingOfAnInvalidRulesFileAndSaysWhere() throws Exception {
    String rules =
        VALID
            + """
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
      answersAsWithoutTheAgent(app);
      assertThat(app.leveeLines())
          .as(app.stderr())
          .anySatisfy(l -> assertThat(l).contains("invalid-rules.yaml:8:").contains("burts"))
          .anySatisfy(l -> assertThat(l).contains("has 1 error: protecting nothing"));
      assertThat(app.stderr()).doesNotContain("\tat ");

      write(file, rules.replace("burts", "burst"));
      limitsOnceTheFileIsMended(app);
    }
  }

  /** Five requests all answered as the application answers alone (see {@code FixturesIT}). */
  private static void answersAsWithoutTheAgent(ForkedApp app) {
    AppClient client = new AppClient(app);
    for (int i = 0; i < 5; i++) {
      HttpResponse<String> r = client.get("/limited/x");
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      assertThat(r.body()).isEqualTo("ok /limited/x");
      assertThat(r.headers().firstValue("X-Filtered")).hasValue("yes");
    }
  }

  /**
   * The watcher (every 2 s, the default) loads the mended file; from then on the bucket of one
   * admits one request and refuses the rest.
   */
  private static void limitsOnceTheFileIsMended(ForkedApp app) throws InterruptedException {
    for (int i = 0; i < 150 && app.leveeLines().stream().noneMatch(FailOpenIT::reloaded); i++) {
      Thread.sleep(100);
    }
    assertThat(app.leveeLines()).as(app.stderr()).anyMatch(FailOpenIT::reloaded);
    AppClient client = new AppClient(app);
    List<Integer> statuses =
        IntStream.range(0, 3).mapToObj(i -> client.get("/limited/x").statusCode()).toList();
    assertThat(statuses).as(app.stderr()).containsExactly(200, 429, 429);
  }

  private static boolean reloaded(String line) {
    return line.contains("rules reloaded from") && line.contains("limited");
  }

  private static void write(Path file, String content) {
    try {
      Files.writeString(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
