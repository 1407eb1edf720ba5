package io.levee.rules.load;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Collects the errors of one rules file; reading goes on after each so all are reported at once.
 */
final class Problems {
  private final String source;
  private final List<RuleError> errors = new ArrayList<RuleError>();

  Problems(String source) {
    this.source = source;
  }

  void at(Node node, String path, String message) {
    at(node.getStartMark(), path, message);
  }

  void at(Mark mark, String path, String message) {
    if (mark == null) {
      at(1, 1, path, message);
    } else {
      at(mark.getLine() + 1, mark.getColumn() + 1, path, message);
    }
  }

  void at(int line, int column, String path, String message) {
    errors.add(new RuleError(source, Math.max(1, line), Math.max(1, column), path, message));
  }

  int count() {
    return errors.size();
  }

  /**
   * Sorted by position; the sort is stable, so errors at one place keep the order they were found.
   */
  List<RuleError> sorted() {
    List<RuleError> copy = new ArrayList<RuleError>(errors);
    Collections.sort(copy);
    return copy;
  }
}
