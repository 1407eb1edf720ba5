package io.levee.rules.engine;

/** How an admitted call ended, after {@code failure:} classified it: the {@code outcome} tag. */
public enum Outcome {
  SUCCESS("success"),
  FAILURE("failure"),
  SLOW("slow"),
  /** {@code ignore-exceptions} or {@code ignore-sql-states}: recorded nowhere. */
  IGNORED("ignored");

  static final Outcome[] ALL = values();

  public final String key;

  Outcome(String key) {
    this.key = key;
  }
}
