package io.levee.agent.jdbc;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.levee.agent.instrument.Transformations;
import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.CallDepth;
import io.levee.bootstrap.Faults;
import io.levee.bootstrap.JdbcState;
import io.levee.bootstrap.Kind;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import java.sql.Connection;
import java.sql.SQLTransientException;
import java.sql.Statement;
import net.bytebuddy.asm.Advice;

/**
 * Statement execution on {@code Statement}, {@code PreparedStatement} and {@code CallableStatement}
 * implementations: every {@code execute*} with or without SQL, and batches. The SQL is the
 * argument, else what the statement was prepared with, else the first SQL of its batch, else null
 * (a statement prepared before a runtime attach).
 */
final class StatementInstrumentation {
  private StatementInstrumentation() {}

  static void addTo(Transformations transformations) {
    transformations
        .add(
            JdbcTypes.implementing("java.sql.Statement"),
            JdbcTypes.advice()
                .advice(
                    isPublic()
                        .and(not(isAbstract()))
                        .and(
                            namedOneOf(
                                "execute",
                                "executeQuery",
                                "executeUpdate",
                                "executeLargeUpdate",
                                "executeBatch",
                                "executeLargeBatch"))
                        .and(takesArguments(0).or(takesArgument(0, String.class))),
                    ExecuteAdvice.class.getName())
                .advice(
                    isPublic().and(named("addBatch")).and(takesArguments(String.class)),
                    AddBatchAdvice.class.getName())
                .advice(
                    isPublic().and(named("clearBatch")).and(takesArguments(0)),
                    ClearBatchAdvice.class.getName()));
  }

  static final class ExecuteAdvice {
    private ExecuteAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Blocked.class)
    static Object enter(
        @Advice.This Statement statement,
        @Advice.Argument(value = 0, optional = true) Object sqlArgument,
        @Advice.Local("leveeToken") Object token,
        @Advice.Local("leveeStart") long start,
        @Advice.Local("leveeBatch") boolean batch,
        @Advice.Local("leveeTimeout") boolean timeoutSet)
        throws Exception {
      Faults.at(Faults.JDBC_EXECUTE_ENTER);
      if (CallDepth.enter(Kind.JDBC) != 0) {
        return null;
      }
      String sql;
      if (sqlArgument instanceof String) {
        sql = (String) sqlArgument;
      } else {
        sql = JdbcState.SQL.get(statement);
        if (sql == null) {
          sql = JdbcState.BATCH.get(statement);
          batch = sql != null;
        }
      }
      Connection connection = statement.getConnection();
      String url = JdbcState.URL.get(connection);
      if (url == null) {
        // Inside the depth taken above: a driver whose getMetaData runs statements is not counted.
        url = connection.getMetaData().getURL();
        JdbcState.learnedUrl(connection, url);
      }
      token = Levee.jdbcEnter(url, sql);
      start = Levee.start(token);
      if (token instanceof Permit) {
        int seconds = ((Permit) token).queryTimeoutSeconds;
        if (seconds > 0 && statement.getQueryTimeout() == 0) {
          statement.setQueryTimeout(seconds);
          timeoutSet = true;
        }
      }
      return token;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    static void exit(
        @Advice.This Statement statement,
        @Advice.Local("leveeToken") Object token,
        @Advice.Local("leveeStart") long start,
        @Advice.Local("leveeBatch") boolean batch,
        @Advice.Local("leveeTimeout") boolean timeoutSet,
        @Advice.Thrown(readOnly = false) Throwable thrown)
        throws Exception {
      if (CallDepth.exit(Kind.JDBC) != 0) {
        return;
      }
      if (token instanceof Blocked) {
        Blocked blocked = (Blocked) token;
        thrown = new SQLTransientException(blocked.message, blocked.sqlState);
        return;
      }
      Levee.exit(token, start, -1, thrown);
      Faults.at(Faults.JDBC_EXECUTE_EXIT);
      if (batch) {
        JdbcState.BATCH.remove(statement);
      }
      if (timeoutSet) {
        statement.setQueryTimeout(0);
      }
    }
  }

  static final class AddBatchAdvice {
    private AddBatchAdvice() {}

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    static void exit(@Advice.This Object statement, @Advice.Argument(0) String sql) {
      JdbcState.batched(statement, sql);
    }
  }

  static final class ClearBatchAdvice {
    private ClearBatchAdvice() {}

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    static void exit(@Advice.This Object statement) {
      JdbcState.BATCH.remove(statement);
    }
  }
}
