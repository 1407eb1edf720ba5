package io.levee.agent.jdbc;

import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;

import io.levee.agent.instrument.AdviceSupport;
import io.levee.agent.instrument.Implementing;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/** Type matchers and the advice transformer the JDBC instrumentations share. */
final class JdbcTypes {
  private JdbcTypes() {}

  /** Concrete implementations of {@code api}, minus the wrappers that must not decide. */
  static AgentBuilder.RawMatcher implementing(String api) {
    return Implementing.anyOf(api).unless(excluded());
  }

  private static ElementMatcher.Junction<TypeDescription> excluded() {
    // because a ShardingSphere statement fans out to one driver statement per shard, and each of
    // those carries the real database URL that rules match on, not the logical sharding URL.
    ElementMatcher.Junction<TypeDescription> sharding =
        nameStartsWith("org.apache.shardingsphere.");
    // because JBoss JCA wrappers only delegate to the driver's objects, which decide instead, and
    // their getConnection() checks the managed connection's state and can throw outside of it.
    ElementMatcher.Junction<TypeDescription> jbossJca =
        nameStartsWith("org.jboss.jca.adapters.jdbc.");
    return sharding.or(jbossJca);
  }

  /**
   * Advice read as class files from the agent's loader, so the agent never loads advice classes.
   */
  static AgentBuilder.Transformer.ForAdvice advice() {
    return AdviceSupport.advice(JdbcTypes.class);
  }
}
