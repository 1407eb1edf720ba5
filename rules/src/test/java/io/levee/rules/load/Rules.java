package io.levee.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import java.util.List;
import java.util.stream.Collectors;

/** Small rules files for the focused tests, and their outcome as plain strings. */
final class Rules {
  static final String SERVLET = "servlet: { paths: [\"/api/**\"] }";
  static final String HTTP = "http: { urls: [\"https://pay.example.com/**\"] }";
  static final String JDBC = "jdbc: { urls: [\"jdbc:postgresql://*/orders\"] }";

  private Rules() {}

  /** A file with one resource named {@code r} matching {@code match}, with the given lines. */
  static String resource(String match, String... lines) {
    StringBuilder yaml =
        new StringBuilder("version: 1\nresources:\n  - name: r\n    match: { ")
            .append(match)
            .append(" }\n");
    for (String line : lines) {
      yaml.append("    ").append(line).append('\n');
    }
    return yaml.toString();
  }

  /** Each error as {@code path: message}. */
  static List<String> errors(String yaml) {
    LoadResult result = RulesLoader.parse("test.yaml", yaml);
    assertThat(result.ok()).as("expected errors in:\n%s", yaml).isFalse();
    assertThat(result.rules()).isNull();
    return result.errors().stream()
        .map(e -> e.path() + ": " + e.message())
        .collect(Collectors.toList());
  }

  static RuleSet load(String yaml) {
    LoadResult result = RulesLoader.parse("test.yaml", yaml);
    assertThat(result.errors()).as("errors in:\n%s", yaml).isEmpty();
    return result.rules();
  }

  static ResourceRule only(String yaml) {
    RuleSet rules = load(yaml);
    assertThat(rules.resources).hasSize(1);
    return rules.resources.get(0);
  }
}
