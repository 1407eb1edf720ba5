package io.levee.agent.log;

/**
 * Where the metrics, the endpoint and the breaker and reload events write their lines: the agent's
 * own log ({@code [levee] LEVEL message}, stderr or {@code log-file}), never the application's.
 */
public interface EventLog {
  void info(String message);

  void warn(String message);

  void error(String message);
}
