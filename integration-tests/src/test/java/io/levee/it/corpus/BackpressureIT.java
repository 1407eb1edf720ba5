package io.levee.it.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.RulesFile;
import io.levee.it.support.StatusRows;
import io.levee.it.support.TestPaths;
import io.levee.testkit.JvmProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code backpressure} on the corpus's Spring Boot 3 application (Spring MVC, Spring Data JPA,
 * HikariCP, H2) under the packaged agent. One statement on the greeting table is allowed an hour,
 * so every query after the first is refused with a SQLTransientException, which Spring wraps and
 * lets out of the request. Only {@code /greetings/{id}} asks for backpressure: there the client
 * gets Levee's 503 with Retry-After; on {@code /greetings} it gets Spring's own 500.
 */
class BackpressureIT {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: one-greeting
          match: { servlet: { paths: ["/greetings/{id}"] } }
          backpressure: true
        - name: greetings-db
          match: { jdbc: { operations: [SELECT], tables: [greeting] } }
          rate-limit: { rate: 1/h, burst: 1 }
      """;

  private static final Path JAR =
      TestPaths.root()
          .resolve("integration-tests/corpus-apps/spring-boot-3/target/spring-boot-3-app.jar");

  private static final Pattern STARTED = Pattern.compile("(?m) : Started \\S+ in ");
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void aRefusedQueryBecomesA503WithRetryAfterWhereBackpressureIsOn() throws Exception {
    assertThat(JAR).as("built by the corpus-apps module; run mvn install").exists();
    Path rules = RulesFile.write("backpressure", RULES);
    int port = StatusRows.freePort();
    int http = StatusRows.freePort();
    try (JvmProcess app =
        JvmProcess.java()
            .options("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
            .agent(TestPaths.agentJar(), "rules=" + rules + ",http=127.0.0.1:" + http)
            .jar(JAR)
            .args("--server.port=" + port)
            .directory(Way.dir())
            .withoutEnv(Processes.NOT_HERMETIC)
            .noInput()
            .output(
                Way.dir().resolve("backpressure.stdout.log"),
                Way.dir().resolve("backpressure.stderr.log"))
            .ready(STARTED)
            .start()) {
      assertThat(app.awaitReady(Duration.ofSeconds(90))).as(app.output()).isPresent();

      HttpResponse<String> admitted = get(port, "/greetings/1");
      assertThat(admitted.statusCode()).as("its statement was admitted").isEqualTo(200);
      assertThat(admitted.body()).contains("Ada");

      HttpResponse<String> plain = get(port, "/greetings");
      assertThat(plain.statusCode()).as("no backpressure: Spring's answer").isEqualTo(500);
      assertThat(plain.headers().firstValue("Retry-After")).isEmpty();
      assertThat(plain.body()).doesNotContain("levee:");

      HttpResponse<String> refused = get(port, "/greetings/2");
      assertThat(refused.statusCode()).as(app.output()).isEqualTo(503);
      assertThat(refused.headers().firstValue("Retry-After"))
          .hasValueSatisfying(seconds -> assertThat(Integer.parseInt(seconds)).isBetween(1, 3600));
      assertThat(refused.body()).isEqualTo("levee: greetings-db blocked the call (rate-limit)\n");

      assertThat(StatusRows.metrics(http))
          .contains("levee_backpressure_total{mode=\"enforce\",resource=\"one-greeting\"} 1\n")
          .contains(
              "levee_blocked_total{kind=\"jdbc\",mode=\"enforce\",reason=\"rate-limit\","
                  + "resource=\"greetings-db\"} 2\n");
      assertThat(app.errors()).doesNotContain("Exception in thread");
    }
  }

  private HttpResponse<String> get(int port, String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(30))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
