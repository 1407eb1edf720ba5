package io.levee.rules.load;

import static io.levee.rules.testing.TestRules.HTTP;
import static io.levee.rules.testing.TestRules.JDBC;
import static io.levee.rules.testing.TestRules.METHOD;
import static io.levee.rules.testing.TestRules.SERVLET;
import static io.levee.rules.testing.TestRules.errors;
import static io.levee.rules.testing.TestRules.file;
import static io.levee.rules.testing.TestRules.load;
import static io.levee.rules.testing.TestRules.only;
import static io.levee.rules.testing.TestRules.resource;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.RuleSet;
import org.junit.jupiter.api.Test;

/** {@code backpressure}: where it may be written, what it defaults to, each error it can make. */
class BackpressureRulesTest {
  private static final String SYSTEM = "system:\n  adaptive: { cpu-target: 80% }\n";

  @Test
  void readsBackpressureOnAServletResource() {
    assertThat(
            only(resource(SERVLET, "concurrency: { max: 5 }", "backpressure: true")).backpressure)
        .isTrue();
    assertThat(
            only(resource(SERVLET, "concurrency: { max: 5 }", "backpressure: false")).backpressure)
        .isFalse();
  }

  @Test
  void leavesAServletResourceUnsetWhenNotWritten() {
    assertThat(only(resource(SERVLET, "concurrency: { max: 5 }")).backpressure).isNull();
    assertThat(only(resource(JDBC, "concurrency: { max: 5 }")).backpressure).isNull();
  }

  @Test
  void readsBackpressureOnSystemAndDefaultsItToFalse() {
    assertThat(load(file(SYSTEM + "  backpressure: true\n")).system.backpressure).isTrue();
    assertThat(load(file(SYSTEM)).system.backpressure).isFalse();
  }

  @Test
  void acceptsAServletResourceWithBackpressureAsItsOnlyPolicy() {
    assertThat(only(resource(SERVLET, "backpressure: true")).backpressure).isTrue();
  }

  @Test
  void stillRequiresAPolicyWhenBackpressureIsFalse() {
    assertThat(errors(resource(SERVLET, "backpressure: false")))
        .containsExactly(
            "resources[0]: resource `r` has no policy; add at least one of circuit-breaker,"
                + " rate-limit, concurrency, adaptive or timeouts");
  }

  @Test
  void rejectsBackpressureOnOutboundResources() {
    for (String match : new String[] {HTTP, JDBC, METHOD}) {
      assertThat(errors(resource(match, "concurrency: { max: 5 }", "backpressure: true")))
          .as(match)
          .containsExactly(
              "resources[0].backpressure: `backpressure` applies to servlet resources and"
                  + " `system`: it answers an inbound request that failed after Levee refused"
                  + " one of its calls; set it on the servlet resource (or `system`) that serves"
                  + " those requests");
    }
  }

  @Test
  void rejectsAnythingButTrueOrFalse() {
    assertThat(errors(resource(SERVLET, "concurrency: { max: 5 }", "backpressure: yes")))
        .containsExactly("resources[0].backpressure: expected true or false, got 'yes'");
    assertThat(errors(file(SYSTEM + "  backpressure: 1\n")))
        .containsExactly("system.backpressure: expected true or false, got '1'");
  }

  @Test
  void aChangedBackpressureIsAChangedRule() {
    RuleSet on = load(resource(SERVLET, "concurrency: { max: 5 }", "backpressure: true"));
    RuleSet off = load(resource(SERVLET, "concurrency: { max: 5 }"));
    assertThat(on.resources.get(0)).isNotEqualTo(off.resources.get(0));
  }
}
