package io.levee.agent.jdbc;

import io.levee.agent.instrument.Integration;
import net.bytebuddy.agent.builder.AgentBuilder;

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
  public AgentBuilder extend(AgentBuilder builder) {
    AgentBuilder b = StatementInstrumentation.extend(builder);
    b = ConnectionInstrumentation.extend(b);
    return ConnectInstrumentation.extend(b);
  }
}
