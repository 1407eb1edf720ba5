package io.levee.agent.jdbc;

import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;

import io.levee.agent.instrument.Transformations;
import io.levee.bootstrap.JdbcState;
import net.bytebuddy.asm.Advice;

/**
 * Remembers the SQL of every statement a {@code Connection} prepares, so its execution can be
 * decided on that SQL. Every level of a pool proxy records its own statement object, so whichever
 * level is outermost at execution finds it.
 */
final class ConnectionInstrumentation {
  private ConnectionInstrumentation() {}

  static void addTo(Transformations transformations) {
    transformations
        .add(
            JdbcTypes.implementing("java.sql.Connection"),
            JdbcTypes.advice()
                .advice(
                    isPublic()
                        .and(namedOneOf("prepareStatement", "prepareCall"))
                        .and(takesArgument(0, String.class)),
                    PrepareAdvice.class.getName()));
  }

  static final class PrepareAdvice {
    private PrepareAdvice() {}

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    static void exit(@Advice.Argument(0) String sql, @Advice.Return Object statement) {
      if (statement != null) {
        // Overwrites: a driver's statement cache hands the same object out again.
        JdbcState.prepared(statement, sql);
      }
    }
  }
}
