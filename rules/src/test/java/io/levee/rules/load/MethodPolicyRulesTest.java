package io.levee.rules.load;

import static io.levee.rules.testing.TestRules.HTTP;
import static io.levee.rules.testing.TestRules.JDBC;
import static io.levee.rules.testing.TestRules.METHOD;
import static io.levee.rules.testing.TestRules.SERVLET;
import static io.levee.rules.testing.TestRules.errors;
import static io.levee.rules.testing.TestRules.load;
import static io.levee.rules.testing.TestRules.only;
import static io.levee.rules.testing.TestRules.resource;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.Mode;
import io.levee.rules.model.OnBlock;
import io.levee.rules.model.ResourceRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a {@code method} resource answers a blocked call with ({@code on-block.throw}) and which
 * policies it takes (SPEC §5.2), with where each error points.
 */
class MethodPolicyRulesTest {
  // on-block

  @Test
  void readsTheExceptionToThrowAndWhereItIsWritten() {
    OnBlock b =
        only(resource(
                METHOD,
                "concurrency: { max: 8 }",
                "on-block: { throw: com.acme.pricing.PricingUnavailableException }"))
            .onBlock;
    assertThat(b.exception).isEqualTo("com.acme.pricing.PricingUnavailableException");
    assertThat(b.exceptionOrDefault()).isEqualTo("com.acme.pricing.PricingUnavailableException");
    assertThat(b.exceptionLine).isEqualTo(6);
    assertThat(b.exceptionColumn).isEqualTo(24);
  }

  @Test
  void locatesTheExceptionToThrowWrittenInBlockStyleAndQuoted() {
    OnBlock b =
        only(resource(
                METHOD,
                "concurrency: { max: 8 }",
                "on-block:",
                "  throw: \"com.acme.pricing.PricingUnavailableException\""))
            .onBlock;
    assertThat(b.exceptionLine).isEqualTo(7);
    assertThat(b.exceptionColumn).isEqualTo(14);
  }

  @Test
  void locatesTheExceptionAsTheLoaderLocatesABadValue() {
    String yaml =
        resource(
            METHOD, "concurrency: { max: 8 }", "on-block: { throw: \"com.acme.Bad-Exception\" }");
    assertThat(MethodRulesTest.located(yaml))
        .containsExactly(
            "6:24 resources[0].on-block.throw: expected an exception class name like"
                + " java.util.concurrent.RejectedExecutionException, got 'com.acme.Bad-Exception'");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "status: 503",
        "retry-after: 2s",
        "body: busy",
        "content-type: text/plain",
        "headers: { X-Reason: busy }",
        "fallback: { status: 503 }",
        "sql-state: \"53000\""
      })
  void rejectsWhatOtherKindsAnswerWithOnAMethodResource(String field) {
    String key = field.substring(0, field.indexOf(':'));
    assertThat(
            MethodRulesTest.located(
                resource(
                    METHOD,
                    "concurrency: { max: 8 }",
                    "on-block: { throw: com.acme.Busy, " + field + " }")))
        .containsExactly(
            "6:39 resources[0].on-block."
                + key
                + ": `"
                + key
                + "` "
                + MethodRulesTest.THROW_INSTEAD);
  }

  @Test
  void allowsThrowOnlyOnMethodResources() {
    String onBlock = "on-block: { throw: com.acme.Busy }";
    assertThat(MethodRulesTest.located(resource(SERVLET, "concurrency: { max: 1 }", onBlock)))
        .containsExactly(
            "6:17 resources[0].on-block.throw: `throw` applies only to method resources; this"
                + " resource matches servlet calls, and a blocked request gets `status`, `body`"
                + " and `headers`");
    assertThat(errors(resource(HTTP, "concurrency: { max: 1 }", onBlock)))
        .containsExactly(
            "resources[0].on-block.throw: `throw` applies only to method resources; this resource"
                + " matches http calls, and a blocked http call throws an IOException, or answers"
                + " with `fallback`");
    assertThat(errors(resource(JDBC, "concurrency: { max: 1 }", onBlock)))
        .containsExactly(
            "resources[0].on-block.throw: `throw` applies only to method resources; this resource"
                + " matches jdbc calls, and a blocked jdbc call throws a SQLTransientException"
                + " with `sql-state`");
    assertThat(errors("version: 1\nsystem: { adaptive: {}, " + onBlock + " }\n"))
        .containsExactly(
            "system.on-block.throw: `throw` applies only to method resources; `system` sheds"
                + " inbound requests, and a blocked request gets `status`, `body` and `headers`");
  }

  // policies

  @Test
  void takesEveryPolicyButTimeouts() {
    ResourceRule r =
        only(
            resource(
                METHOD,
                "mode: monitor",
                "circuit-breaker: { failure-rate: 50%, slow-call: 2s }",
                "rate-limit: { rate: 20/s, max-wait: 100ms }",
                "concurrency: { max: 8 }",
                "adaptive: { max-limit: 32 }",
                "failure: { exceptions: [java.io.IOException],"
                    + " ignore-exceptions: [java.io.FileNotFoundException] }"));
    assertThat(r.mode).isEqualTo(Mode.MONITOR);
    assertThat(r.circuitBreaker).isNotNull();
    assertThat(r.rateLimit.per).isNull();
    assertThat(r.concurrency.max).isEqualTo(8);
    assertThat(r.adaptive.maxLimit).isEqualTo(32);
    assertThat(r.failure.exceptions).containsExactly("java.io.IOException");
    assertThat(r.failure.ignoreExceptions).containsExactly("java.io.FileNotFoundException");
  }

  @Test
  void rejectsPerOnAMethodResource() {
    assertThat(MethodRulesTest.located(resource(METHOD, "rate-limit: { rate: 5/s, per: ip }")))
        .containsExactly(
            "5:30 resources[0].rate-limit.per: `per` gives each client of an inbound request its"
                + " own bucket, so it applies only to servlet resources; this resource matches"
                + " method calls");
  }

  @Test
  void rejectsTimeoutsOnAMethodResourceOnce() {
    String message =
        "resources[0].timeouts: `timeouts` applies to http and jdbc resources, whose clients have"
            + " a timeout to set; a method has none (bound slow calls with circuit-breaker's"
            + " `slow-call`)";
    assertThat(
            MethodRulesTest.located(
                resource(
                    METHOD, "concurrency: { max: 1 }", "timeouts: { connect: 1s, query: 2s }")))
        .containsExactly("6:5 " + message);
    assertThat(MethodRulesTest.located(resource(METHOD, "concurrency: { max: 1 }", "timeouts: {}")))
        .containsExactly("6:5 " + message);
  }

  @Test
  void rejectsStatusesAndSqlStatesAsFailuresOfAMethod() {
    assertThat(
            MethodRulesTest.located(
                resource(
                    METHOD,
                    "circuit-breaker: {}",
                    "failure: { statuses: [\"5xx\"], ignore-sql-states: [\"23*\"] }")))
        .containsExactly(
            "6:16 resources[0].failure.statuses: `statuses` applies to servlet and http resources;"
                + " a method call has no status (use `exceptions` and `ignore-exceptions`)",
            "6:35 resources[0].failure.ignore-sql-states: `ignore-sql-states` applies only to jdbc"
                + " resources; this resource matches method calls (use `ignore-exceptions` for what"
                + " the method throws)");
  }

  @Test
  void namesThePoliciesAMethodResourceCanHave() {
    assertThat(errors(resource(METHOD, "on-block: { throw: com.acme.Busy }")))
        .containsExactly(
            "resources[0]: resource `r` has no policy; add at least one of circuit-breaker,"
                + " rate-limit, concurrency or adaptive");
  }

  // the file as a whole

  @Test
  void holdsUpToSixtyFourMethodResources() {
    assertThat(load(methodResources(64)).resources).hasSize(64);
  }

  @Test
  void rejectsTheSixtyFifthMethodResource() {
    String yaml = methodResources(66);
    assertThat(MethodRulesTest.located(yaml))
        .containsExactly(
            (3 + 64 * 3)
                + ":5 resources[64]: a rules file may hold at most 64 method resources, and this is"
                + " the 65th; protect several classes with one resource (`class` takes a list)"
                + " where they can share its policies");
  }

  @Test
  void countsOnlyMethodResourcesTowardsTheirBound() {
    String yaml =
        methodResources(64)
            + "  - name: api\n    match: { "
            + SERVLET
            + " }\n    concurrency: { max: 1 }\n";
    assertThat(load(yaml).resources).hasSize(65);
  }

  @Test
  void leavesTheOtherKindsAsTheyWere() {
    ResourceRule r =
        only(resource(HTTP, "concurrency: { max: 1 }", "on-block: { fallback: { status: 503 } }"));
    assertThat(r.match.method).isNull();
    assertThat(r.onBlock.exception).isNull();
    assertThat(r.onBlock.exceptionLine).isZero();
    assertThat(r.onBlock.exceptionColumn).isZero();
  }

  private static String methodResources(int n) {
    StringBuilder yaml = new StringBuilder("version: 1\nresources:\n");
    for (int i = 0; i < n; i++) {
      yaml.append("  - name: m")
          .append(i)
          .append("\n    match: { method: { class: com.acme.C")
          .append(i)
          .append(" } }\n    concurrency: { max: 1 }\n");
    }
    return yaml.toString();
  }
}
