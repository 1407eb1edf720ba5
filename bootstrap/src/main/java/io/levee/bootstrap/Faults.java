package io.levee.bootstrap;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Named points where the agent's own code runs inside an application's call, each of which can be
 * made to throw, to prove that whatever fails inside Levee the application's answers stay what they
 * are without it (SPEC §1). Never for production: the armed point protects nothing.
 *
 * <p>Fault mode is on when the JVM starts with {@code -Dlevee.inject-faults} set to anything but
 * {@code false}; it is read once into a static final, so with it off every {@link #at} is a branch
 * the JIT removes. In fault mode the property is read again at every point, so a test can switch
 * the armed point at runtime: {@code true} arms {@link #DISPATCHER} (every decision and outcome), a
 * point's {@link #name} arms that point alone, {@code all} arms every point at once (the
 * transparency corpus runs real software so: every woven hook fails at its first step), {@code
 * none} arms nothing.
 *
 * <p>Concurrency: the counters are atomic; a point switched while calls run may trip or not in
 * calls already under way.
 */
public final class Faults {
  public static final String PROPERTY = "levee.inject-faults";

  public static final int SERVLET_ENTER = 0;
  public static final int SERVLET_EXIT = 1;
  public static final int SERVLET_PATH = 2;
  public static final int SERVLET_ASYNC = 3;
  public static final int HTTP_ENTER = 4;
  public static final int HTTP_EXIT = 5;
  public static final int HTTP_HEADERS = 6;
  public static final int HTTP_DISCONNECT = 7;
  public static final int JDBC_CONNECT_ENTER = 8;
  public static final int JDBC_CONNECT_EXIT = 9;
  public static final int JDBC_EXECUTE_ENTER = 10;
  public static final int JDBC_EXECUTE_EXIT = 11;
  public static final int JDBC_STATE = 12;
  public static final int CALL_DEPTH = 13;
  public static final int WEAK_MAP = 14;
  public static final int BRIDGE = 15;
  public static final int DISPATCHER = 16;
  public static final int MATCH = 17;
  public static final int KEYS = 18;
  public static final int DECIDE = 19;
  public static final int COMPLETE = 20;
  public static final int METHOD_ENTER = 21;
  public static final int METHOD_EXIT = 22;

  private static final String[] NAMES = {
    "servlet-enter",
    "servlet-exit",
    "servlet-path",
    "servlet-async",
    "http-enter",
    "http-exit",
    "http-headers",
    "http-disconnect",
    "jdbc-connect-enter",
    "jdbc-connect-exit",
    "jdbc-execute-enter",
    "jdbc-execute-exit",
    "jdbc-state",
    "call-depth",
    "weak-map",
    "bridge",
    "dispatcher",
    "match",
    "keys",
    "decide",
    "complete",
    "method-enter",
    "method-exit"
  };

  public static final int COUNT = NAMES.length;

  private static final boolean ENABLED = enabled(System.getProperty(PROPERTY));
  private static final AtomicLongArray THROWN = new AtomicLongArray(COUNT);

  private Faults() {}

  /** Throws when {@code point} is armed; does nothing, at no cost, outside fault mode. */
  public static void at(int point) {
    if (ENABLED) {
      trip(point);
    }
  }

  public static boolean enabled() {
    return ENABLED;
  }

  public static String name(int point) {
    return NAMES[point];
  }

  /** How many faults {@code point} has thrown since the JVM started. */
  public static long thrown(int point) {
    return THROWN.get(point);
  }

  static boolean enabled(String value) {
    return value != null && !value.equalsIgnoreCase("false");
  }

  static boolean armed(String value, int point) {
    return value != null
        && (value.equals(NAMES[point])
            || value.equalsIgnoreCase("all")
            || (value.equalsIgnoreCase("true") && point == DISPATCHER));
  }

  private static void trip(int point) {
    if (!armed(System.getProperty(PROPERTY), point)) {
      return;
    }
    THROWN.incrementAndGet(point);
    IllegalStateException fault = new IllegalStateException("fault injected at " + NAMES[point]);
    // The trace starts where the point sits, so the log names the code that failed.
    StackTraceElement[] trace = fault.getStackTrace();
    if (trace.length > 2) {
      StackTraceElement[] rest = new StackTraceElement[trace.length - 2];
      System.arraycopy(trace, 2, rest, 0, rest.length);
      fault.setStackTrace(rest);
    }
    throw fault;
  }
}
