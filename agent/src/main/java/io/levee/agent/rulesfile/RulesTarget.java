package io.levee.agent.rulesfile;

import io.levee.rules.load.RuleError;
import io.levee.rules.model.RuleSet;
import java.util.List;

/** What a watched rules file feeds: the running agent, which puts valid rules in force. */
public interface RulesTarget {
  /** The rules in force, whose {@code settings.reload} sets how often the file is looked at. */
  RuleSet rules();

  /**
   * What is wrong with {@code rules} (read from {@code file}) that only the running application
   * shows, such as a method resource whose exception a loaded method cannot throw; empty when they
   * can be put in force.
   */
  List<RuleError> check(String file, RuleSet rules);

  /** Puts {@code rules} in force. */
  void apply(RuleSet rules);

  /** A changed {@code file} was rejected with {@code errors}; the rules in force stay. */
  void rejected(String file, List<RuleError> errors);
}
