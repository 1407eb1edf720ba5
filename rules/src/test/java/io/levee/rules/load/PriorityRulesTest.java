package io.levee.rules.load;

import static io.levee.rules.testing.TestRules.HTTP;
import static io.levee.rules.testing.TestRules.JDBC;
import static io.levee.rules.testing.TestRules.METHOD;
import static io.levee.rules.testing.TestRules.SERVLET;
import static io.levee.rules.testing.TestRules.errors;
import static io.levee.rules.testing.TestRules.load;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.Priority;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import org.junit.jupiter.api.Test;

/** A servlet resource's {@code priority}: what loads, each error it can make, and reload. */
class PriorityRulesTest {
  private static final String SYSTEM = "system: { adaptive: { cpu-target: 80% } }\n";

  /** A file with a system rule and one resource {@code r} matching {@code match}. */
  private static String withSystem(String match, String... lines) {
    StringBuilder yaml =
        new StringBuilder("version: 1\n")
            .append(SYSTEM)
            .append("resources:\n  - name: r\n    match: { ")
            .append(match)
            .append(" }\n");
    for (String line : lines) {
      yaml.append("    ").append(line).append('\n');
    }
    return yaml.toString();
  }

  private static ResourceRule only(String yaml) {
    RuleSet rules = load(yaml);
    assertThat(rules.resources).hasSize(1);
    return rules.resources.get(0);
  }

  @Test
  void readsEachPriorityOfAServletResource() {
    assertThat(only(withSystem(SERVLET, "priority: critical")).priority)
        .isEqualTo(Priority.CRITICAL);
    assertThat(only(withSystem(SERVLET, "priority: normal")).priority).isEqualTo(Priority.NORMAL);
    assertThat(only(withSystem(SERVLET, "priority: sheddable")).priority)
        .isEqualTo(Priority.SHEDDABLE);
  }

  @Test
  void defaultsToNormal() {
    assertThat(only(withSystem(SERVLET, "concurrency: { max: 4 }")).priority)
        .isEqualTo(Priority.NORMAL);
    assertThat(only(withSystem(HTTP, "concurrency: { max: 4 }")).priority)
        .isEqualTo(Priority.NORMAL);
  }

  @Test
  void aPriorityAloneIsEnoughForAServletResource() {
    ResourceRule health = only(withSystem(SERVLET, "priority: critical"));
    assertThat(health.concurrency).isNull();
    assertThat(health.rateLimit).isNull();
    assertThat(health.adaptive).isNull();
    assertThat(health.circuitBreaker).isNull();
  }

  @Test
  void goesWithTheResourcesOwnPolicies() {
    ResourceRule export =
        only(withSystem(SERVLET, "priority: sheddable", "concurrency: { max: 2 }"));
    assertThat(export.priority).isEqualTo(Priority.SHEDDABLE);
    assertThat(export.concurrency.max).isEqualTo(2);
  }

  @Test
  void rejectsAPriorityOnAnythingButAServletResource() {
    for (String[] kind : new String[][] {{HTTP, "http"}, {JDBC, "jdbc"}, {METHOD, "method"}}) {
      assertThat(errors(withSystem(kind[0], "priority: critical", "concurrency: { max: 4 }")))
          .containsExactly(
              "resources[0].priority: `priority` applies to servlet resources: it ranks inbound"
                  + " requests under the `system` limit, and a "
                  + kind[1]
                  + " resource's calls are not inbound requests; leave it out here");
    }
  }

  @Test
  void reportsTheWrongKindAtTheKeyWithLineAndColumn() {
    LoadResult result =
        RulesLoader.parse(
            "rules.yaml", withSystem(HTTP, "concurrency: { max: 4 }", "priority: sheddable"));
    assertThat(result.errors()).hasSize(1);
    RuleError e = result.errors().get(0);
    assertThat(e.file()).isEqualTo("rules.yaml");
    assertThat(e.line()).isEqualTo(7);
    assertThat(e.column()).isEqualTo(5);
  }

  @Test
  void suggestsTheNearestPriorityForAMisspeltOne() {
    assertThat(errors(withSystem(SERVLET, "priority: critcal")))
        .containsExactly(
            "resources[0].priority: unknown priority 'critcal'; did you mean `critical`? The"
                + " priorities are critical, normal, sheddable");
    assertThat(errors(withSystem(SERVLET, "priority: shedable")))
        .containsExactly(
            "resources[0].priority: unknown priority 'shedable'; did you mean `sheddable`? The"
                + " priorities are critical, normal, sheddable");
  }

  @Test
  void listsThePrioritiesForAnUnknownOne() {
    LoadResult result = RulesLoader.parse("rules.yaml", withSystem(SERVLET, "priority: high"));
    assertThat(result.errors()).hasSize(1);
    RuleError e = result.errors().get(0);
    assertThat(e.message())
        .isEqualTo("unknown priority 'high'; expected one of: critical, normal, sheddable");
    assertThat(e.line()).isEqualTo(6);
    assertThat(e.column()).isEqualTo(15);
  }

  @Test
  void rejectsAPriorityThatIsNotAWord() {
    assertThat(errors(withSystem(SERVLET, "priority: [critical]")))
        .containsExactly(
            "resources[0].priority: expected critical, normal or sheddable, got a list");
  }

  @Test
  void rejectsAPriorityInAFileWithoutASystemRule() {
    String yaml =
        "version: 1\nresources:\n  - name: r\n    match: { "
            + SERVLET
            + " }\n    priority: critical\n";
    assertThat(errors(yaml))
        .containsExactly(
            "resources[0].priority: `priority` ranks requests only when the `system` limit is"
                + " full, and this file has no `system:`; add one, like system: { adaptive: {"
                + " cpu-target: 80% } }, or leave `priority` out");
  }

  @Test
  void aChangedPriorityIsAChangedRule() {
    ResourceRule critical = only(withSystem(SERVLET, "priority: critical"));
    ResourceRule again = only(withSystem(SERVLET, "priority: critical"));
    ResourceRule sheddable = only(withSystem(SERVLET, "priority: sheddable"));
    assertThat(again).isEqualTo(critical);
    assertThat(sheddable).isNotEqualTo(critical);
  }

  @Test
  void sayingNormalMeansWhatSayingNothingMeans() {
    ResourceRule said = only(withSystem(SERVLET, "priority: normal", "concurrency: { max: 4 }"));
    ResourceRule unsaid = only(withSystem(SERVLET, "concurrency: { max: 4 }"));
    assertThat(said).isEqualTo(unsaid);
  }
}
