package io.levee.agent.jdbc;

import static io.levee.agent.instrument.Advice.Pass.arg;
import static io.levee.agent.instrument.Advice.Pass.firstArgOrNull;
import static io.levee.agent.instrument.Advice.Pass.self;

import io.levee.agent.instrument.Advice;
import io.levee.agent.instrument.Integration;
import io.levee.agent.instrument.MethodRule;
import io.levee.agent.instrument.Transformations;
import io.levee.agent.instrument.TypeRule;
import io.levee.bootstrap.jdbc.JdbcHooks;

/**
 * JDBC (SPEC §2 {@code jdbc}): statement execution on any driver, and connection acquisition. One
 * decision per logical call: the per-thread depth of {@code Kind.JDBC} lets only the outermost of a
 * pool proxy and the driver beneath it decide. The logic is in {@code
 * io.levee.bootstrap.jdbc.JdbcHooks} and, where it needs {@code java.sql}, in {@link SqlCalls}.
 *
 * <ul>
 *   <li>Statement execution on {@code Statement}, {@code PreparedStatement} and {@code
 *       CallableStatement} implementations: every {@code execute*} with or without SQL, and
 *       batches. The SQL is the argument, else what the statement was prepared with, else the first
 *       SQL of its batch, else null (a statement prepared before a runtime attach).
 *   <li>The SQL every {@code Connection} prepares, remembered for its statement's execution. Every
 *       level of a pool proxy records its own statement object, so whichever level is outermost at
 *       execution finds it.
 *   <li>Connection acquisition (operation {@code CONNECT}): {@code Driver.connect} and {@code
 *       DataSource.getConnection}. The outermost acquisition whose JDBC URL is known decides: a
 *       pool borrowing from its idle connections decides at its {@code getConnection}; a data
 *       source that does not expose its URL (a framework proxy) lets the one beneath it decide. A
 *       pool opening connections on its own threads ({@code PoolRefill}) is never decided.
 * </ul>
 *
 * <p>Not woven: ShardingSphere's statements, which fan out to one driver statement per shard, each
 * carrying the real database URL that rules match on (not the logical sharding URL); JBoss JCA
 * wrappers, which only delegate to the driver's objects (which decide instead) and whose {@code
 * getConnection()} checks the managed connection's state and can throw outside of it.
 */
public final class JdbcIntegration implements Integration {
  private static final String[] EXCLUDED = {
    "org.apache.shardingsphere.", "org.jboss.jca.adapters.jdbc."
  };

  @Override
  public String name() {
    return "jdbc";
  }

  @Override
  public void addTo(Transformations transformations) {
    JdbcHooks.install(new SqlCalls());
    Advice hooks = Advice.in("io.levee.bootstrap.jdbc.JdbcHooks");
    Advice.Pass object = self("java.lang.Object");
    transformations
        .add(
            TypeRule.implementing("java.sql.Statement")
                .except(EXCLUDED)
                .methods(
                    MethodRule.named(
                            "execute",
                            "executeQuery",
                            "executeUpdate",
                            "executeLargeUpdate",
                            "executeBatch",
                            "executeLargeBatch")
                        .taking("()", "(Ljava/lang/String;")
                        .publicOnly()
                        .weave(
                            hooks
                                .enter("execute", object, firstArgOrNull())
                                .timed()
                                .exit("executed", "executeFailed", object)),
                    MethodRule.named("addBatch")
                        .taking("(Ljava/lang/String;)")
                        .publicOnly()
                        .weave(hooks.exit("batched", null, object, arg(0))),
                    MethodRule.named("clearBatch")
                        .taking("()")
                        .publicOnly()
                        .weave(hooks.exit("batchCleared", null, object))))
        .add(
            TypeRule.implementing("java.sql.Connection")
                .except(EXCLUDED)
                .methods(
                    MethodRule.named("prepareStatement", "prepareCall")
                        .taking("(Ljava/lang/String;")
                        .publicOnly()
                        .weave(hooks.exit("prepared", null, object, arg(0)))))
        .add(
            TypeRule.implementing("java.sql.Driver")
                .except(EXCLUDED)
                .methods(
                    MethodRule.named("connect")
                        .taking("(Ljava/lang/String;Ljava/util/Properties;)")
                        .publicOnly()
                        .weave(
                            hooks
                                .enter("driverConnect", object, arg(0))
                                .timed()
                                .exit("driverConnected", "driverConnectFailed"))))
        .add(
            TypeRule.implementing("javax.sql.DataSource")
                .except(EXCLUDED)
                .methods(
                    MethodRule.named("getConnection")
                        .publicOnly()
                        .weave(
                            hooks
                                .enter("dataSourceConnect", object)
                                .exit("dataSourceConnected", "dataSourceConnectFailed"))));
  }
}
