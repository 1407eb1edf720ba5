package io.levee.agent.instrument.sample;

/**
 * Holds a statement method without being a {@code java.sql.Statement}, as sqlite-jdbc's {@code
 * JDBC3Statement} does; {@link InheritingStatement} is the statement.
 */
public abstract class InheritedBase {
  public boolean execute(String sql) {
    return sql != null;
  }
}
