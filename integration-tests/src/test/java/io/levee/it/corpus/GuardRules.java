package io.levee.it.corpus;

import io.levee.it.apps.corpus.jdbc.Combination;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The enforcing run's rules: for each combination, a resource of its own on the SELECTs of its
 * guard table in its database, with a burst of 1, so that of the guard's two SELECTs in a row
 * exactly one is admitted, and only if the agent decides once per statement however many pool and
 * driver layers the statement goes through. Nothing else of the corpus matches. The rate is one an
 * hour rather than a second so that a busy machine pausing the run between the two cannot refill
 * the bucket.
 */
final class GuardRules {
  private GuardRules() {}

  static String yaml(List<Combination> combinations) {
    StringBuilder yaml =
        new StringBuilder("version: 1\nsettings: { mode: enforce, reload: 0 }\nresources:\n");
    for (Combination c : combinations) {
      yaml.append("  - name: guard.")
          .append(c.name().replace('/', '.'))
          .append("\n    match: { jdbc: { urls: [\"")
          .append(c.database().urlPattern)
          .append("\"], operations: [SELECT], tables: [")
          .append(c.guardTable())
          .append("] } }\n    rate-limit: { rate: 1/h, burst: 1 }\n");
    }
    return yaml.toString();
  }

  static Path write(List<Combination> combinations) {
    try {
      return Files.writeString(
          Way.dir().resolve("jdbc-guard.yaml"), yaml(combinations), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
