package io.levee.agent.log;

/**
 * Where the metrics, the endpoint and the breaker and reload events write their lines: the agent's
 * own log ({@code [levee] LEVEL message}, stderr or {@code log-file}), never the application's.
 */
public interface EventLog {
  void info(String message);

  void warn(String message);

  void error(String message);

  /** Whether {@link #debug} lines are written; a log that writes none need not build them. */
  default boolean debugging() {
    return false;
  }

  /**
   * A line for whoever diagnoses the agent ({@code log=debug}); dropped unless {@link #debugging}.
   */
  default void debug(String message) {}
}
