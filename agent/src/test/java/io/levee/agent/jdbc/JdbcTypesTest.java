package io.levee.agent.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Modifier;
import java.sql.Statement;
import java.util.List;
import net.bytebuddy.description.type.TypeDescription;
import org.junit.jupiter.api.Test;

class JdbcTypesTest {
  @Test
  void matchesADriversStatement() {
    assertThat(
            JdbcTypes.implementing("java.sql.Statement")
                .matches(statement("org.h2.jdbc.JdbcStatement"), null, null, null, null))
        .isTrue();
  }

  @Test
  void leavesShardingSphereToTheDriverStatementsBeneathIt() {
    assertThat(
            JdbcTypes.implementing("java.sql.Statement")
                .matches(
                    statement(
                        "org.apache.shardingsphere.driver.jdbc.core.statement.ShardingSphereStatement"),
                    null,
                    null,
                    null,
                    null))
        .isFalse();
  }

  @Test
  void leavesJbossJcaWrappersToTheDriverBeneathThem() {
    assertThat(
            JdbcTypes.implementing("java.sql.Statement")
                .matches(
                    statement("org.jboss.jca.adapters.jdbc.jdk8.WrappedStatementJDK8"),
                    null,
                    null,
                    null,
                    null))
        .isFalse();
  }

  @Test
  void neverMatchesTheInterfaceItself() {
    assertThat(
            JdbcTypes.implementing("java.sql.Statement")
                .matches(TypeDescription.ForLoadedType.of(Statement.class), null, null, null, null))
        .isFalse();
  }

  private static TypeDescription statement(String name) {
    return new TypeDescription.Latent(
        name,
        Modifier.PUBLIC,
        TypeDescription.Generic.OBJECT,
        List.of(TypeDescription.ForLoadedType.of(Statement.class).asGenericType()));
  }
}
