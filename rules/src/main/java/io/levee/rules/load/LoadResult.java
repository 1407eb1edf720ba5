package io.levee.rules.load;

import io.levee.rules.model.RuleSet;
import java.util.Collections;
import java.util.List;

/** The outcome of loading a rules file: the rules, or every error found and no rules at all. */
public final class LoadResult {
  private final RuleSet rules;
  private final List<RuleError> errors;

  private LoadResult(RuleSet rules, List<RuleError> errors) {
    this.rules = rules;
    this.errors = Collections.unmodifiableList(errors);
  }

  static LoadResult of(RuleSet rules) {
    return new LoadResult(rules, Collections.<RuleError>emptyList());
  }

  static LoadResult failed(List<RuleError> errors) {
    return new LoadResult(null, errors);
  }

  /** True when the file has no error; only then are there rules. */
  public boolean ok() {
    return errors.isEmpty();
  }

  /** The validated rules, or null unless {@link #ok()}: nothing of a file with errors is used. */
  public RuleSet rules() {
    return rules;
  }

  /** Every error, sorted by line and column; empty when {@link #ok()}. */
  public List<RuleError> errors() {
    return errors;
  }

  @Override
  public String toString() {
    return ok() ? "ok: " + rules.resources.size() + " resources" : errors.toString();
  }
}
