package io.levee.agent.jdbc;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.CallDepth;
import io.levee.bootstrap.Faults;
import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.Kind;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.jdbc.JdbcCall;
import io.levee.bootstrap.jdbc.JdbcCalls;
import io.levee.bootstrap.jdbc.JdbcState;
import io.levee.bootstrap.jdbc.PoolRefill;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;
import java.sql.Statement;

/**
 * The part of the JDBC logic that uses {@code java.sql} (which the boot loader cannot see on Java
 * 9+), called by {@code io.levee.bootstrap.jdbc.JdbcHooks}.
 */
final class SqlCalls extends JdbcCalls {
  @Override
  public Object execute(Object target, Object sqlArgument) throws Exception {
    Faults.at(Faults.JDBC_EXECUTE_ENTER);
    // A superclass woven for its statement subclasses (Inheritance) may have other instances.
    if (CallDepth.enter(Kind.JDBC) != 0 || !(target instanceof Statement)) {
      return null;
    }
    Statement statement = (Statement) target;
    String sql;
    boolean batch = false;
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
    Object token = Levee.jdbcEnter(url, sql);
    boolean timeoutSet = false;
    if (token instanceof Permit) {
      // Admitted: from here on nothing may throw, or the permit would never go back.
      try {
        int seconds = ((Permit) token).queryTimeoutSeconds;
        if (seconds > 0 && statement.getQueryTimeout() == 0) {
          statement.setQueryTimeout(seconds);
          timeoutSet = true;
        }
      } catch (Throwable t) {
        HookErrors.report(t);
      }
    }
    return batch || timeoutSet
        ? new JdbcCall(token, Levee.start(token), batch, timeoutSet, null)
        : token;
  }

  @Override
  public void executed(Object token, long start, Object statement, Throwable thrown)
      throws Exception {
    if (CallDepth.exit(Kind.JDBC) != 0) {
      return;
    }
    Object permit = token;
    long started = start;
    boolean batch = false;
    boolean timeoutSet = false;
    if (token instanceof JdbcCall) {
      JdbcCall call = (JdbcCall) token;
      permit = call.token;
      started = call.start;
      batch = call.batch;
      timeoutSet = call.timeoutSet;
    }
    Levee.exit(permit, started, -1, thrown);
    Faults.at(Faults.JDBC_EXECUTE_EXIT);
    if (batch) {
      JdbcState.BATCH.remove(statement);
    }
    if (timeoutSet) {
      ((Statement) statement).setQueryTimeout(0);
    }
  }

  @Override
  public Object driverConnect(Object driver, String url) throws Exception {
    Faults.at(Faults.JDBC_CONNECT_ENTER);
    // DriverManager offers the URL to every registered driver; only the one that takes it
    // decides. A pool filling itself in the background is not an acquisition of the
    // application (its getConnection is), and refusing it would starve the pool; finding
    // that out walks the stack, so only when a rule would decide.
    if (CallDepth.enter(Kind.JDBC) != 0
        || url == null
        || !(driver instanceof Driver)
        || !((Driver) driver).acceptsURL(url)
        || (Levee.jdbcConnectMatches(url) && PoolRefill.onThisThread())) {
      return null;
    }
    return Levee.jdbcConnect(url);
  }

  @Override
  public Throwable statementBlocked(Blocked blocked) {
    return new SQLTransientException(blocked.message, blocked.sqlState);
  }

  @Override
  public Throwable connectBlocked(Blocked blocked) {
    return new SQLTransientConnectionException(blocked.message, blocked.sqlState);
  }

  @Override
  public boolean isConnection(Object value) {
    return value instanceof Connection;
  }
}
