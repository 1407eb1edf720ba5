package io.levee.rules.load;

import static io.levee.rules.testing.TestRules.HTTP;
import static io.levee.rules.testing.TestRules.JDBC;
import static io.levee.rules.testing.TestRules.SERVLET;
import static io.levee.rules.testing.TestRules.errors;
import static io.levee.rules.testing.TestRules.load;
import static io.levee.rules.testing.TestRules.only;
import static io.levee.rules.testing.TestRules.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.levee.rules.model.KeySpec;
import io.levee.rules.model.Mode;
import io.levee.rules.model.OnBlock;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One test per rule about a value: its form, its range, and what it becomes in the model. */
class ValueRulesTest {
  private static final long MS = 1_000_000L;
  private static final long S = 1_000 * MS;

  @Test
  void readsDurationsInEveryUnit() {
    ResourceRule r = only(resource(HTTP, "timeouts: { connect: 250ms, read: 1.5s }"));
    assertThat(r.timeouts.connectNanos).isEqualTo(250 * MS);
    assertThat(r.timeouts.readNanos).isEqualTo(1_500 * MS);
    ResourceRule b = only(resource(HTTP, "circuit-breaker: { open-for: 5m, open-for-max: 1h }"));
    assertThat(b.circuitBreaker.openForNanos).isEqualTo(300 * S);
    assertThat(b.circuitBreaker.openForMaxNanos).isEqualTo(3_600 * S);
  }

  @Test
  void rejectsADurationWithoutUnit() {
    assertThat(errors(resource(HTTP, "timeouts: { read: 2 }")))
        .containsExactly(
            "resources[0].timeouts.read: expected a duration like 250ms or 2s, got '2'");
  }

  @Test
  void rejectsADurationOverADay() {
    assertThat(errors(resource(SERVLET, "concurrency: { max: 1, max-wait: 2000m }")))
        .containsExactly("resources[0].concurrency.max-wait: must be at most 24h, got 2000m");
  }

  @Test
  void acceptsZeroOnlyWhereItMeansNone() {
    assertThat(load("version: 1\nsettings: { reload: 0 }\n").settings.reloadNanos).isZero();
    assertThat(
            only(resource(SERVLET, "concurrency: { max: 1, max-wait: 0 }"))
                .concurrency
                .maxWaitNanos)
        .isZero();
    assertThat(errors(resource(HTTP, "timeouts: { connect: 0s }")))
        .containsExactly("resources[0].timeouts.connect: must be more than 0, got 0s");
  }

  @Test
  void reloadsAtMostEveryHundredMilliseconds() {
    assertThat(errors("version: 1\nsettings: { reload: 50ms }\n"))
        .containsExactly("settings.reload: must be 0 (off) or at least 100ms, got 50ms");
  }

  @Test
  void readsRatiosAsPercentOrFraction() {
    ResourceRule r =
        only(
            resource(
                HTTP,
                "circuit-breaker: { failure-rate: 25%, slow-call: 1s,"
                    + " slow-call-rate: 0.75 }"));
    assertThat(r.circuitBreaker.failureRate).isEqualTo(0.25);
    assertThat(r.circuitBreaker.slowCallRate).isEqualTo(0.75);
  }

  @Test
  void rejectsARatioAboveOne() {
    assertThat(errors(resource(JDBC, "adaptive: { cpu-target: 1.2 }")))
        .containsExactly(
            "resources[0].adaptive.cpu-target: must be more than 0% and at most 100%, got 1.2");
  }

  @Test
  void convertsRatesToPermitsPerSecond() {
    assertThat(rate("50/s")).isEqualTo(50);
    assertThat(rate("90/m")).isCloseTo(1.5, within(1e-12));
    assertThat(rate("7200/h")).isCloseTo(2, within(1e-12));
    assertThat(rate("2.5/s")).isEqualTo(2.5);
  }

  @Test
  void rejectsARateOfZero() {
    assertThat(errors(resource(SERVLET, "rate-limit: { rate: 0.0/m }")))
        .containsExactly("resources[0].rate-limit.rate: must be more than 0, got 0.0/m");
  }

  @Test
  void defaultsBurstToOneSecondOfRateButAtLeastOne() {
    assertThat(only(resource(SERVLET, "rate-limit: { rate: 50/s }")).rateLimit.burst).isEqualTo(50);
    assertThat(only(resource(SERVLET, "rate-limit: { rate: 30/m }")).rateLimit.burst).isEqualTo(1);
    assertThat(only(resource(SERVLET, "rate-limit: { rate: 5/s, burst: 7 }")).rateLimit.burst)
        .isEqualTo(7);
  }

  @Test
  void readsWarmUpAndMaxWait() {
    ResourceRule r =
        only(resource(SERVLET, "rate-limit: { rate: 5/s, warm-up: 1m, max-wait: 20ms }"));
    assertThat(r.rateLimit.warmUpNanos).isEqualTo(60 * S);
    assertThat(r.rateLimit.maxWaitNanos).isEqualTo(20 * MS);
  }

  @Test
  void readsFailureStatusesAsClassesOrCodes() {
    ResourceRule r =
        only(resource(HTTP, "circuit-breaker: {}", "failure: { statuses: [5XX, 429] }"));
    assertThat(r.failure.statuses).containsExactly("5xx", "429");
  }

  @Test
  void rejectsAFailureStatusOutsideHttp() {
    assertThat(errors(resource(HTTP, "circuit-breaker: {}", "failure: { statuses: [99] }")))
        .containsExactly(
            "resources[0].failure.statuses[0]: expected a status code 100-599 or a"
                + " class like 5xx, got '99'");
  }

  @Test
  void normalisesMethodsToUpperCase() {
    ResourceRule r = only(resource("servlet: { methods: [get, Post] }", "concurrency: { max: 1 }"));
    assertThat(r.match.methods).containsExactly("GET", "POST");
  }

  @Test
  void rejectsAnUnknownMethod() {
    assertThat(errors(resource("http: { methods: [GETT] }", "concurrency: { max: 1 }")))
        .containsExactly(
            "resources[0].match.http.methods[0]: expected an HTTP method (GET, HEAD,"
                + " POST, PUT, DELETE, PATCH, OPTIONS, TRACE, CONNECT), got 'GETT'");
  }

  @Test
  void requiresPathPatternsToStartWithASlash() {
    assertThat(errors(resource("servlet: { paths: [\"*.jsp\"] }", "concurrency: { max: 1 }")))
        .containsExactly(
            "resources[0].match.servlet.paths[0]: expected a path pattern starting"
                + " with /, like /shop/**, got '*.jsp'");
  }

  @Test
  void acceptsUrlPatternsWithAnySchemeAndPort() {
    ResourceRule r =
        only(
            resource(
                "http: { urls: [\"*://*.example.com:8443/v1/{n}/**\"] }",
                "concurrency: { max: 1 }"));
    assertThat(r.match.urls).containsExactly("*://*.example.com:8443/v1/{n}/**");
  }

  @Test
  void requiresUrlPatternsToHaveAPath() {
    assertThat(
            errors(
                resource(
                    "http: { urls: [\"https://pay.example.com\"] }", "concurrency: { max: 1 }")))
        .containsExactly(
            "resources[0].match.http.urls[0]: a URL pattern needs a path after the host,"
                + " like https://pay.example.com/** for every path, got 'https://pay.example.com'");
  }

  @Test
  void requiresJdbcUrlsToStartWithJdbc() {
    assertThat(
            errors(
                resource(
                    "jdbc: { urls: [\"postgresql://db/orders\"] }", "concurrency: { max: 1 }")))
        .containsExactly(
            "resources[0].match.jdbc.urls[0]: expected a"
                + " JDBC URL pattern starting with jdbc:, like jdbc:postgresql://*/orders*, got"
                + " 'postgresql://db/orders'");
  }

  @ParameterizedTest
  @ValueSource(strings = {"[/a/b**]", "[\"/a/b**\"]", "['/a/b**']", "[\"/\uD83D\uDE00/b**\"]"})
  void pointsAtTheCharacterWhereAPatternGoesWrong(String paths) {
    String yaml = resource("servlet: { paths: " + paths + " }", "concurrency: { max: 1 }");
    String line = yaml.split("\n")[3];
    assertThat(onlyErrorAt(yaml))
        .isEqualTo("4:" + (line.codePointCount(0, line.indexOf("**")) + 1));
  }

  @Test
  void pointsAtAPatternWithEscapesAsAWhole() {
    String yaml = resource("servlet: { paths: [\"/a/\\x62**\"] }", "concurrency: { max: 1 }");
    String line = yaml.split("\n")[3];
    assertThat(onlyErrorAt(yaml)).isEqualTo("4:" + (line.indexOf('"') + 1));
  }

  private static String onlyErrorAt(String yaml) {
    List<RuleError> errors = RulesLoader.parse("test.yaml", yaml).errors();
    assertThat(errors).hasSize(1);
    return errors.get(0).line() + ":" + errors.get(0).column();
  }

  @Test
  void requiresSqlToCompileAsARegularExpression() {
    assertThat(errors(resource("jdbc: { sql: \"(?i)from [orders\" }", "concurrency: { max: 1 }")))
        .containsExactly(
            "resources[0].match.jdbc.sql: not a valid regular expression: Unclosed"
                + " character class near index 15 of '(?i)from [orders'");
    assertThat(
            only(resource("jdbc: { sql: \"(?i)^select\" }", "concurrency: { max: 1 }")).match.sql)
        .isEqualTo("(?i)^select");
  }

  @Test
  void requiresASqlStateOfFiveCharacters() {
    assertThat(
            only(resource(JDBC, "concurrency: { max: 1 }", "on-block: { sql-state: 08001 }"))
                .onBlock
                .sqlState)
        .isEqualTo("08001");
    assertThat(errors(resource(JDBC, "concurrency: { max: 1 }", "on-block: { sql-state: hy000 }")))
        .containsExactly(
            "resources[0].on-block.sql-state: expected a SQLState of 5 digits or"
                + " capital letters, like 53000, got 'hy000'");
  }

  @Test
  void readsPerAsIpHeaderOrParam() {
    assertThat(per("ip")).isEqualTo(new KeySpec(KeySpec.Source.IP, null));
    assertThat(per("header:X-Tenant")).isEqualTo(new KeySpec(KeySpec.Source.HEADER, "X-Tenant"));
    assertThat(per("param:user")).isEqualTo(new KeySpec(KeySpec.Source.PARAM, "user"));
    assertThat(errors(resource(SERVLET, "rate-limit: { rate: 5/s, per: \"header:\" }")))
        .containsExactly(
            "resources[0].rate-limit.per: expected ip, header:NAME, param:NAME or jwt:CLAIM,"
                + " got 'header:'");
  }

  @Test
  void readsRetryAfterAsAutoNoneOrWholeSecondsRoundedUp() {
    assertThat(retryAfter("auto")).isEqualTo(OnBlock.RETRY_AFTER_AUTO);
    assertThat(retryAfter("none")).isEqualTo(OnBlock.RETRY_AFTER_NONE);
    assertThat(retryAfter("1500ms")).isEqualTo(2);
    assertThat(retryAfter("1ms")).isEqualTo(1);
    assertThat(retryAfter("2m")).isEqualTo(120);
  }

  @Test
  void requiresAnErrorStatusForABlockedRequest() {
    assertThat(errors(resource(SERVLET, "concurrency: { max: 1 }", "on-block: { status: 302 }")))
        .containsExactly("resources[0].on-block.status: must be between 400 and 599, got 302");
  }

  @Test
  void defaultsTheFallbackToStatus503AndAnEmptyBody() {
    OnBlock.Fallback f =
        only(resource(
                HTTP,
                "concurrency: { max: 1 }",
                "on-block: { fallback: { headers: { X-Degraded: yes } } }"))
            .onBlock
            .fallback;
    assertThat(f.status).isEqualTo(503);
    assertThat(f.body).isEmpty();
    assertThat(f.headers).containsEntry("X-Degraded", "yes");
  }

  @Test
  void rejectsAHeaderValueThatSpansLines() {
    assertThat(
            errors(
                resource(
                    SERVLET,
                    "concurrency: { max: 1 }",
                    "on-block: { content-type: \"text/plain\\nX-Evil: 1\" }")))
        .containsExactly(
            "resources[0].on-block.content-type: a header value must be one line without control"
                + " characters");
  }

  @Test
  void resolvesEachModeAgainstTheSettings() {
    RuleSet rules =
        load(
            "version: 1\nsettings: { mode: monitor }\n"
                + "system: { adaptive: {} }\nresources:\n"
                + "  - { name: a, match: { "
                + SERVLET
                + " }, concurrency: { max: 1 } }\n"
                + "  - { name: b, mode: ENFORCE, match: { "
                + SERVLET
                + " }, concurrency: { max: 1 } }\n");
    assertThat(rules.system.mode).isEqualTo(Mode.MONITOR);
    assertThat(rules.resources.get(0).mode).isEqualTo(Mode.MONITOR);
    assertThat(rules.resources.get(1).mode).isEqualTo(Mode.ENFORCE);
  }

  @Test
  void readsWholeNumbersWithUnderscores() {
    assertThat(load("version: 1\nsettings: { max-keys: 50_000 }\n").settings.maxKeys)
        .isEqualTo(50_000);
    assertThat(errors("version: 1\nsettings: { max-keys: 1e4 }\n"))
        .containsExactly("settings.max-keys: expected a whole number, got '1e4'");
  }

  @Test
  void treatsEveryScalarAsTextSoNoValueIsGuessed() {
    assertThat(
            only(resource(SERVLET, "concurrency: { max: 1 }")
                    .replace("name: r", "name: 2024-01-01"))
                .name)
        .isEqualTo("2024-01-01");
  }

  private static double rate(String rate) {
    return only(resource(SERVLET, "rate-limit: { rate: " + rate + " }")).rateLimit.permitsPerSecond;
  }

  private static KeySpec per(String per) {
    return only(resource(SERVLET, "rate-limit: { rate: 5/s, per: \"" + per + "\" }")).rateLimit.per;
  }

  private static int retryAfter(String value) {
    return only(resource(
            SERVLET, "concurrency: { max: 1 }", "on-block: { retry-after: " + value + " }"))
        .onBlock
        .retryAfterSeconds;
  }
}
