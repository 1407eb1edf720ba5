package io.levee.rules.model;

/**
 * How a servlet resource's requests rank when the {@code system} limit is full: {@link #SHEDDABLE}
 * ones are refused first, {@link #CRITICAL} ones last, only once critical requests alone fill the
 * limit. A request that matched no resource is {@link #NORMAL}.
 */
public enum Priority {
  CRITICAL("critical"),
  NORMAL("normal"),
  SHEDDABLE("sheddable");

  /** The word the rules file uses. */
  public final String key;

  Priority(String key) {
    this.key = key;
  }
}
