package io.levee.agent.jdbc;

import io.levee.agent.instrument.Integration;
import io.levee.agent.instrument.Transformations;

/**
 * JDBC (SPEC §2 {@code jdbc}): statement execution on any driver, and connection acquisition. One
 * decision per logical call: the per-thread depth of {@code Kind.JDBC} lets only the outermost of a
 * pool proxy and the driver beneath it decide.
 */
public final class JdbcIntegration implements Integration {
  @Override
  public String name() {
    return "jdbc";
  }

  @Override
  public void addTo(Transformations transformations) {
    StatementInstrumentation.addTo(transformations);
    ConnectionInstrumentation.addTo(transformations);
    ConnectInstrumentation.addTo(transformations);
  }
}
