package io.levee.agent.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.instrument.Weaver;
import io.levee.agent.log.AgentLog;
import java.io.OutputStream;
import java.io.PrintStream;
import java.sql.Statement;
import java.util.List;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.implementation.StubMethod;
import net.bytebuddy.matcher.ElementMatchers;
import org.junit.jupiter.api.Test;

/** Which statement classes the jdbc integration weaves, on class files made here. */
class JdbcTypesTest {
  private final Weaver weaver =
      Weaver.forTests(
          List.of(new JdbcIntegration()),
          new AgentLog(new PrintStream(OutputStream.nullOutputStream()), AgentLog.Level.WARN));

  @Test
  void weavesADriversStatement() {
    assertThat(woven("org.h2.sample.JdbcStatement")).isTrue();
  }

  @Test
  void leavesShardingSphereToTheDriverStatementsBeneathIt() {
    assertThat(
            woven("org.apache.shardingsphere.driver.jdbc.core.statement.ShardingSphereStatement"))
        .isFalse();
  }

  @Test
  void leavesJbossJcaWrappersToTheDriverBeneathThem() {
    assertThat(woven("org.jboss.jca.adapters.jdbc.jdk8.WrappedStatementJDK8")).isFalse();
  }

  @Test
  void neverWeavesTheInterfaceItself() throws Exception {
    byte[] bytes;
    try (var in = ClassLoader.getSystemResourceAsStream("java/sql/Statement.class")) {
      bytes = in.readAllBytes();
    }
    assertThat(
            weaver.transform(
                JdbcTypesTest.class.getClassLoader(), "java/sql/Statement", null, null, bytes))
        .isNull();
  }

  private boolean woven(String name) {
    byte[] statement =
        new ByteBuddy()
            .subclass(Object.class)
            .implement(Statement.class)
            .name(name)
            .method(ElementMatchers.isAbstract())
            .intercept(StubMethod.INSTANCE)
            .make()
            .getBytes();
    return weaver.transform(
            JdbcTypesTest.class.getClassLoader(), name.replace('.', '/'), null, null, statement)
        != null;
  }
}
