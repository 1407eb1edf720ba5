package io.levee.rules.load;

import static io.levee.rules.testing.TestRules.HTTP;
import static io.levee.rules.testing.TestRules.JDBC;
import static io.levee.rules.testing.TestRules.SERVLET;
import static io.levee.rules.testing.TestRules.errors;
import static io.levee.rules.testing.TestRules.only;
import static io.levee.rules.testing.TestRules.resource;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.AdaptiveSpec;
import io.levee.rules.model.CircuitBreakerSpec;
import org.junit.jupiter.api.Test;

/**
 * One test per contradiction: a setting that the resource's kind or its other settings would ignore
 * or overrule is an error, never something logged and run.
 */
class ContradictionRulesTest {
  private static final long S = 1_000_000_000L;

  @Test
  void allowsPerOnlyOnServletResources() {
    assertThat(errors(resource(JDBC, "rate-limit: { rate: 5/s, per: ip }")))
        .containsExactly(
            "resources[0].rate-limit.per: `per` gives each client of an inbound request its own"
                + " bucket, so it applies only to servlet resources; this resource matches jdbc"
                + " calls");
  }

  @Test
  void allowsConnectAndReadTimeoutsOnlyOnHttp() {
    assertThat(errors(resource(JDBC, "timeouts: { connect: 1s, read: 2s }")))
        .containsExactly(
            "resources[0].timeouts.connect: `connect` applies only to http resources; this resource"
                + " matches jdbc calls",
            "resources[0].timeouts.read: `read` applies only to http resources; this resource"
                + " matches jdbc calls");
  }

  @Test
  void allowsTheQueryTimeoutOnlyOnJdbc() {
    assertThat(only(resource(JDBC, "timeouts: { query: 2s }")).timeouts.queryNanos)
        .isEqualTo(2 * S);
    assertThat(errors(resource(HTTP, "timeouts: { query: 2s }")))
        .containsExactly(
            "resources[0].timeouts.query: `query` applies only to jdbc resources; this resource"
                + " matches http calls");
  }

  @Test
  void allowsNoTimeoutsOnServletResources() {
    assertThat(errors(resource(SERVLET, "concurrency: { max: 1 }", "timeouts: { read: 1s }")))
        .containsExactly(
            "resources[0].timeouts: `timeouts` applies to http and jdbc resources; a"
                + " servlet resource serves calls, it does not make them");
  }

  @Test
  void rejectsTimeoutsThatSetNothing() {
    assertThat(errors(resource(HTTP, "timeouts: {}")))
        .containsExactly(
            "resources[0].timeouts:"
                + " `timeouts` is empty; set connect and read (http) or query (jdbc)");
  }

  @Test
  void allowsFallbackOnlyOnHttp() {
    assertThat(errors(resource(JDBC, "concurrency: { max: 1 }", "on-block: { fallback: {} }")))
        .containsExactly(
            "resources[0].on-block.fallback: `fallback` applies only to http"
                + " resources; this resource matches jdbc calls");
  }

  @Test
  void allowsSqlStateOnlyOnJdbc() {
    assertThat(
            errors(resource(SERVLET, "concurrency: { max: 1 }", "on-block: { sql-state: 53000 }")))
        .containsExactly(
            "resources[0].on-block.sql-state: `sql-state` applies only to jdbc"
                + " resources; this resource matches servlet calls");
  }

  @Test
  void allowsResponseSettingsOnlyOnServletResources() {
    assertThat(errors(resource(JDBC, "concurrency: { max: 1 }", "on-block: { retry-after: none }")))
        .containsExactly(
            "resources[0].on-block.retry-after: `retry-after` applies only to servlet resources; a"
                + " blocked jdbc call throws a SQLTransientException with `sql-state`");
  }

  @Test
  void allowsIgnoredSqlStatesOnlyOnJdbc() {
    assertThat(
            errors(resource(HTTP, "adaptive: {}", "failure: { ignore-sql-states: [\"40001\"] }")))
        .containsExactly(
            "resources[0].failure.ignore-sql-states: `ignore-sql-states` applies only"
                + " to jdbc resources; this resource matches http calls");
  }

  @Test
  void allowsNoStatusesOnJdbc() {
    assertThat(errors(resource(JDBC, "adaptive: {}", "failure: { statuses: [500] }")))
        .containsExactly(
            "resources[0].failure.statuses: `statuses` applies to servlet and http"
                + " resources; a jdbc call has no status (use `ignore-sql-states`)");
  }

  @Test
  void requiresABreakerOrAdaptiveLimitForFailure() {
    assertThat(
            errors(
                resource(
                    HTTP,
                    "rate-limit: { rate: 1/s }",
                    "failure: { exceptions:" + " [java.io.IOException] }")))
        .containsExactly(
            "resources[0].failure: `failure` only"
                + " tells circuit-breaker and adaptive what a failed call is, and this resource has"
                + " neither");
  }

  @Test
  void requiresSlowCallForSlowCallRate() {
    assertThat(errors(resource(HTTP, "circuit-breaker: { slow-call-rate: 50% }")))
        .containsExactly(
            "resources[0].circuit-breaker.slow-call-rate: `slow-call-rate` needs `slow-call`, the"
                + " duration above which a call counts as slow");
  }

  @Test
  void requiresOpenForMaxNotBelowOpenFor() {
    assertThat(errors(resource(HTTP, "circuit-breaker: { open-for: 1m, open-for-max: 30s }")))
        .containsExactly(
            "resources[0].circuit-breaker.open-for-max: `open-for-max` (30s) must not"
                + " be less than `open-for` (1m)");
  }

  @Test
  void letsBreakerDefaultsYieldToTheValuesGiven() {
    CircuitBreakerSpec longOpen =
        only(resource(HTTP, "circuit-breaker: { open-for: 2m }")).circuitBreaker;
    assertThat(longOpen.openForMaxNanos).isEqualTo(120 * S);
    CircuitBreakerSpec lowCap =
        only(resource(HTTP, "circuit-breaker: { open-for-max: 2s }")).circuitBreaker;
    assertThat(lowCap.openForNanos).isEqualTo(2 * S);
  }

  @Test
  void requiresMinLimitNotAboveMaxLimit() {
    assertThat(errors(resource(JDBC, "adaptive: { min-limit: 9, max-limit: 3 }")))
        .containsExactly(
            "resources[0].adaptive.max-limit: `max-limit` (3) is less than `min-limit` (9)");
  }

  @Test
  void requiresInitialLimitWithinTheLimits() {
    assertThat(
            errors(resource(JDBC, "adaptive: { min-limit: 5, max-limit: 9, initial-limit: 10 }")))
        .containsExactly(
            "resources[0].adaptive.initial-limit: `initial-limit` (10) is more than"
                + " `max-limit` (9)");
  }

  @Test
  void letsAdaptiveDefaultsYieldToTheValuesGiven() {
    assertThat(adaptive("min-limit: 300")).isEqualTo(new AdaptiveSpec(300, 300, 300, 0.8));
    assertThat(adaptive("max-limit: 10")).isEqualTo(new AdaptiveSpec(2, 10, 10, 0.8));
    assertThat(adaptive("initial-limit: 1")).isEqualTo(new AdaptiveSpec(1, 200, 1, 0.8));
    assertThat(adaptive("min-limit: 30")).isEqualTo(new AdaptiveSpec(30, 200, 30, 0.8));
  }

  @Test
  void rejectsTablesOrSqlForConnect() {
    assertThat(
            errors(
                resource("jdbc: { operations: [connect], sql: \"x\" }", "concurrency: { max: 1 }")))
        .containsExactly(
            "resources[0].match.jdbc.sql: `sql` never matches CONNECT, which runs no SQL; match"
                + " connections in a resource of their own");
  }

  @Test
  void sheddingInboundRequestsHasNoFallback() {
    assertThat(errors("version: 1\nsystem: { adaptive: {}, on-block: { fallback: {} } }\n"))
        .containsExactly(
            "system.on-block.fallback: `fallback` applies only to http resources;"
                + " `system` sheds inbound requests");
  }

  private static AdaptiveSpec adaptive(String settings) {
    return only(resource(JDBC, "adaptive: { " + settings + " }")).adaptive;
  }
}
