package io.levee.rules.model;

import java.util.Collections;
import java.util.List;

/**
 * {@code failure:}: which outcomes count as failures for the breaker and the adaptive limit. Status
 * patterns are {@code 5xx}-style classes or exact codes; exception names match the class and its
 * superclasses; SQL states are patterns like {@code 23*}.
 */
public final class FailureSpec {
  public static final FailureSpec DEFAULT =
      new FailureSpec(
          Collections.singletonList(Defaults.FAILURE_STATUSES),
          Collections.<String>emptyList(),
          Collections.<String>emptyList(),
          Collections.<String>emptyList());

  public final List<String> statuses;

  /** Empty: any exception is a failure. */
  public final List<String> exceptions;

  public final List<String> ignoreExceptions;
  public final List<String> ignoreSqlStates;

  public FailureSpec(
      List<String> statuses,
      List<String> exceptions,
      List<String> ignoreExceptions,
      List<String> ignoreSqlStates) {
    this.statuses = Collections.unmodifiableList(statuses);
    this.exceptions = Collections.unmodifiableList(exceptions);
    this.ignoreExceptions = Collections.unmodifiableList(ignoreExceptions);
    this.ignoreSqlStates = Collections.unmodifiableList(ignoreSqlStates);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof FailureSpec)) {
      return false;
    }
    FailureSpec f = (FailureSpec) o;
    return statuses.equals(f.statuses)
        && exceptions.equals(f.exceptions)
        && ignoreExceptions.equals(f.ignoreExceptions)
        && ignoreSqlStates.equals(f.ignoreSqlStates);
  }

  @Override
  public int hashCode() {
    return Values.hash(statuses, exceptions, ignoreExceptions, ignoreSqlStates);
  }
}
