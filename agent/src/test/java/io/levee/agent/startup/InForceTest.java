package io.levee.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.load.RulesLoader;
import io.levee.rules.model.RuleSet;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** What the start-up line says is in force, by what the start found. */
class InForceTest {
  private static RuleSet rules(String yaml) {
    return RulesLoader.parse("/etc/levee/rules.yaml", yaml).rules();
  }

  @Test
  void namesTheRulesAndTheirFile() {
    RuleSet one =
        rules(
            "version: 1\n"
                + "resources:\n"
                + "  - name: a\n"
                + "    match: { http: { urls: [\"http://x/**\"] } }\n"
                + "    concurrency: { max: 2 }\n");
    assertThat(Startup.inForce(one, Paths.get("/etc/levee/rules.yaml")))
        .isEqualTo("1 resource from /etc/levee/rules.yaml");
    RuleSet system = rules("version: 1\nsystem: { adaptive: {} }\n");
    assertThat(Startup.inForce(system, Paths.get("/etc/levee/rules.yaml")))
        .isEqualTo("0 resources and the system rule from /etc/levee/rules.yaml");
  }

  @Test
  void aFileNotAppliedIsSaidToBeWatchedNotToHoldNothing() {
    Path file = Paths.get("/etc/levee/rules.yaml");
    assertThat(Startup.inForce(RuleSet.EMPTY, file))
        .isEqualTo("protecting nothing until the rules file loads without errors (it is watched)");
    assertThat(Startup.inForce(RuleSet.EMPTY, null)).isEqualTo("no rules file, protecting nothing");
  }
}
