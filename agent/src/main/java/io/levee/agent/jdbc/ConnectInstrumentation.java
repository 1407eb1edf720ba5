package io.levee.agent.jdbc;

import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.levee.agent.instrument.Transformations;
import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.CallDepth;
import io.levee.bootstrap.Faults;
import io.levee.bootstrap.JdbcState;
import io.levee.bootstrap.Kind;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.PoolRefill;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLTransientConnectionException;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Connection acquisition (operation {@code CONNECT}): {@code Driver.connect} and {@code
 * DataSource.getConnection}. The outermost acquisition whose JDBC URL is known decides: a pool
 * borrowing from its idle connections decides at its {@code getConnection}; a data source that does
 * not expose its URL (a framework proxy) lets the one beneath it decide. A pool opening connections
 * on its own threads ({@link PoolRefill}) is never decided.
 */
final class ConnectInstrumentation {
  private ConnectInstrumentation() {}

  static void addTo(Transformations transformations) {
    transformations
        .add(
            JdbcTypes.implementing("java.sql.Driver"),
            JdbcTypes.advice()
                .advice(
                    isPublic()
                        .and(named("connect"))
                        .and(takesArguments(2))
                        .and(takesArgument(0, String.class)),
                    DriverConnectAdvice.class.getName()))
        .add(
            JdbcTypes.implementing("javax.sql.DataSource"),
            JdbcTypes.advice()
                .advice(
                    isPublic().and(named("getConnection")),
                    DataSourceConnectAdvice.class.getName()));
  }

  static final class DriverConnectAdvice {
    private DriverConnectAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Blocked.class)
    static Object enter(
        @Advice.This Driver driver,
        @Advice.Argument(0) String url,
        @Advice.Local("leveeToken") Object token,
        @Advice.Local("leveeStart") long start)
        throws Exception {
      Faults.at(Faults.JDBC_CONNECT_ENTER);
      // DriverManager offers the URL to every registered driver; only the one that takes it
      // decides. A pool filling itself in the background is not an acquisition of the
      // application (its getConnection is), and refusing it would starve the pool; finding
      // that out walks the stack, so only when a rule would decide.
      if (CallDepth.enter(Kind.JDBC) != 0
          || url == null
          || !driver.acceptsURL(url)
          || (Levee.jdbcConnectMatches(url) && PoolRefill.onThisThread())) {
        return null;
      }
      token = Levee.jdbcConnect(url);
      start = Levee.start(token);
      return token;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    static void exit(
        @Advice.Local("leveeToken") Object token,
        @Advice.Local("leveeStart") long start,
        @Advice.Thrown(readOnly = false) Throwable thrown) {
      if (CallDepth.exit(Kind.JDBC) != 0) {
        return;
      }
      if (token instanceof Blocked) {
        Blocked blocked = (Blocked) token;
        thrown = new SQLTransientConnectionException(blocked.message, blocked.sqlState);
        return;
      }
      Levee.exit(token, start, -1, thrown);
      Faults.at(Faults.JDBC_CONNECT_EXIT);
    }
  }

  static final class DataSourceConnectAdvice {
    private DataSourceConnectAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Blocked.class)
    static Object enter(
        @Advice.This Object dataSource,
        @Advice.Local("leveeToken") Object token,
        @Advice.Local("leveeStart") long start,
        @Advice.Local("leveeDepth") boolean depthTaken,
        @Advice.Local("leveeUrl") String knownUrl) {
      Faults.at(Faults.JDBC_CONNECT_ENTER);
      // Taken before anything else can throw, so the exit advice always gives the depth back.
      depthTaken = true;
      if (CallDepth.enter(Kind.JDBC) != 0) {
        return null;
      }
      String url = JdbcState.dataSourceUrl(dataSource);
      if (url == null) {
        CallDepth.exit(Kind.JDBC);
        depthTaken = false;
        return null;
      }
      knownUrl = url;
      token = Levee.jdbcConnect(url);
      start = Levee.start(token);
      return token;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    static void exit(
        @Advice.Local("leveeToken") Object token,
        @Advice.Local("leveeStart") long start,
        @Advice.Local("leveeDepth") boolean depthTaken,
        @Advice.Local("leveeUrl") String knownUrl,
        @Advice.Return(typing = Assigner.Typing.DYNAMIC) Object connection,
        @Advice.Thrown(readOnly = false) Throwable thrown) {
      if (!depthTaken || CallDepth.exit(Kind.JDBC) != 0) {
        return;
      }
      if (token instanceof Blocked) {
        Blocked blocked = (Blocked) token;
        thrown = new SQLTransientConnectionException(blocked.message, blocked.sqlState);
        return;
      }
      // The permit first: what fails after it leaves nothing held.
      Levee.exit(token, start, -1, thrown);
      Faults.at(Faults.JDBC_CONNECT_EXIT);
      if (connection instanceof Connection) {
        // A pool hands out a new proxy per borrow: its statements then need no getMetaData.
        JdbcState.learnedUrl(connection, knownUrl);
      }
    }
  }
}
