package io.levee.bootstrap.jdbc;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.CallDepth;
import io.levee.bootstrap.Faults;
import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.Kind;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Sneaky;

/**
 * What woven JDBC methods call. Statement execution and {@code Driver.connect} go to the agent's
 * {@link JdbcCalls}; {@code DataSource.getConnection}, prepared SQL and batches need nothing of
 * {@code java.sql} and are handled here.
 *
 * <p>A blocked call throws from the enter method, before the original runs, what the agent's hook
 * makes of the {@link Blocked} answer ({@code SQLTransientException} or {@code
 * SQLTransientConnectionException}), after giving the call depth back. Anything else that fails
 * here is reported and the call runs unprotected.
 */
public final class JdbcHooks {
  private static volatile JdbcCalls hook;

  private JdbcHooks() {}

  public static void install(JdbcCalls h) {
    hook = h;
  }

  // Statement.execute*: enter, normal exit, exceptional exit.

  public static Object execute(Object statement, Object sqlArgument) {
    JdbcCalls h = hook;
    if (h == null) {
      return null;
    }
    Object token;
    try {
      token = h.execute(statement, sqlArgument);
    } catch (Throwable t) {
      HookErrors.report(t);
      return null;
    }
    return token instanceof Blocked ? blocked(h, (Blocked) token, false) : token;
  }

  public static Object executed(Object token, long start, Object statement, Object returned) {
    end(token, start, statement, null);
    return returned;
  }

  public static Throwable executeFailed(
      Object token, long start, Object statement, Throwable thrown) {
    end(token, start, statement, thrown);
    return thrown;
  }

  private static void end(Object token, long start, Object statement, Throwable thrown) {
    JdbcCalls h = hook;
    if (h == null) {
      return;
    }
    try {
      h.executed(token, start, statement, thrown);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
  }

  // Driver.connect.

  public static Object driverConnect(Object driver, Object url) {
    JdbcCalls h = hook;
    if (h == null) {
      return null;
    }
    Object token;
    try {
      token = h.driverConnect(driver, (String) url);
    } catch (Throwable t) {
      HookErrors.report(t);
      return null;
    }
    return token instanceof Blocked ? blocked(h, (Blocked) token, true) : token;
  }

  public static Object driverConnected(Object token, long start, Object returned) {
    driverEnd(token, start, null);
    return returned;
  }

  public static Throwable driverConnectFailed(Object token, long start, Throwable thrown) {
    driverEnd(token, start, thrown);
    return thrown;
  }

  private static void driverEnd(Object token, long start, Throwable thrown) {
    try {
      if (CallDepth.exit(Kind.JDBC) != 0) {
        return;
      }
      Levee.exit(token, start, -1, thrown);
      Faults.at(Faults.JDBC_CONNECT_EXIT);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
  }

  // DataSource.getConnection: the outermost acquisition whose URL is known decides.

  public static Object dataSourceConnect(Object dataSource) {
    JdbcCalls h = hook;
    if (h == null) {
      return null;
    }
    boolean depthTaken = false;
    try {
      Faults.at(Faults.JDBC_CONNECT_ENTER);
      // Taken before anything else can throw, so the exit always gives the depth back.
      depthTaken = true;
      if (CallDepth.enter(Kind.JDBC) != 0) {
        return JdbcCall.NESTED;
      }
      String url = JdbcState.dataSourceUrl(dataSource);
      if (url == null) {
        CallDepth.exit(Kind.JDBC);
        return null;
      }
      Object token = Levee.jdbcConnect(url);
      if (token instanceof Blocked) {
        Throwable error = h.connectBlocked((Blocked) token);
        CallDepth.exit(Kind.JDBC);
        throw new Raise(error);
      }
      return new JdbcCall(token, Levee.start(token), false, false, url);
    } catch (Raise r) {
      throw Sneaky.raise(r.getCause());
    } catch (Throwable t) {
      HookErrors.report(t);
      return depthTaken ? JdbcCall.NESTED : null;
    }
  }

  public static Object dataSourceConnected(Object token, Object returned) {
    dataSourceEnd(token, returned, null);
    return returned;
  }

  public static Throwable dataSourceConnectFailed(Object token, Throwable thrown) {
    dataSourceEnd(token, null, thrown);
    return thrown;
  }

  private static void dataSourceEnd(Object token, Object connection, Throwable thrown) {
    if (token == null) {
      return;
    }
    try {
      if (CallDepth.exit(Kind.JDBC) != 0 || token == JdbcCall.NESTED) {
        return;
      }
      JdbcCall call = (JdbcCall) token;
      // The permit first: what fails after it leaves nothing held.
      Levee.exit(call.token, call.start, -1, thrown);
      Faults.at(Faults.JDBC_CONNECT_EXIT);
      JdbcCalls h = hook;
      if (connection != null && h != null && h.isConnection(connection)) {
        // A pool hands out a new proxy per borrow: its statements then need no getMetaData.
        JdbcState.learnedUrl(connection, call.url);
      }
    } catch (Throwable t) {
      HookErrors.report(t);
    }
  }

  // Connection.prepareStatement / prepareCall, Statement.addBatch / clearBatch: exit only.

  public static Object prepared(Object token, Object connection, Object sql, Object returned) {
    try {
      if (returned != null) {
        // Overwrites: a driver's statement cache hands the same object out again.
        JdbcState.prepared(connection, returned, (String) sql);
      }
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return returned;
  }

  public static Object batched(Object token, Object statement, Object sql, Object returned) {
    try {
      JdbcState.batched(statement, (String) sql);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return returned;
  }

  public static Object batchCleared(Object token, Object statement, Object returned) {
    try {
      JdbcState.BATCH.remove(statement);
    } catch (Throwable t) {
      HookErrors.report(t);
    }
    return returned;
  }

  /**
   * Throws the exception of a blocked call from the enter method, the depth given back first (no
   * exit follows). If the hook cannot make one, the call runs unprotected (a null token, whose exit
   * gives the depth back): never an error of our own in place of the application's.
   */
  private static Object blocked(JdbcCalls h, Blocked blocked, boolean connect) {
    Throwable error;
    try {
      error = connect ? h.connectBlocked(blocked) : h.statementBlocked(blocked);
    } catch (Throwable t) {
      HookErrors.report(t);
      return null;
    }
    CallDepth.exit(Kind.JDBC);
    throw Sneaky.raise(error);
  }

  /** Carries the exception of a blocked call out of the catch-all above. */
  private static final class Raise extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Raise(Throwable error) {
      super(null, error, false, false);
    }
  }
}
