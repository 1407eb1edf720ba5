package io.levee.bootstrap.jdbc;

import io.levee.bootstrap.Blocked;

/**
 * The JDBC logic that needs {@code java.sql}, which the boot loader cannot see on Java 9+ (it is a
 * platform module); the agent installs its implementation in {@link JdbcHooks}. Methods may throw:
 * {@link JdbcHooks} reports it and lets the call run unprotected.
 */
public abstract class JdbcCalls {
  /**
   * Enter of a statement execution: null (not decided), the engine's permit, a {@link Blocked} or a
   * {@link JdbcCall}.
   */
  public abstract Object execute(Object statement, Object sqlArgument) throws Exception;

  /**
   * Exit of an execution {@link #execute} answered with {@code token} (never a {@link Blocked}).
   */
  public abstract void executed(Object token, long start, Object statement, Throwable thrown)
      throws Exception;

  /** Enter of {@code Driver.connect}: null, a permit or a {@link Blocked}. */
  public abstract Object driverConnect(Object driver, String url) throws Exception;

  /** The exception a blocked statement execution throws. */
  public abstract Throwable statementBlocked(Blocked blocked);

  /** The exception a blocked connection acquisition throws. */
  public abstract Throwable connectBlocked(Blocked blocked);

  /** Whether {@code value} is a {@code java.sql.Connection}. */
  public abstract boolean isConnection(Object value);
}
