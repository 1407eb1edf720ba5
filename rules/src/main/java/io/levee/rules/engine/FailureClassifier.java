package io.levee.rules.engine;

import io.levee.bootstrap.Dispatcher;
import io.levee.rules.model.FailureSpec;
import java.sql.SQLException;
import java.util.List;

/**
 * {@code failure:} compiled for the hot path: which outcomes are failures, which are ignored.
 *
 * <p>Ignoring wins over everything (an ignored call is recorded nowhere, like Resilience4j's
 * ignored exceptions). Then an exception is a failure when {@code exceptions} is empty or names its
 * class or a superclass; an exception not named there counts as a success unless the status says
 * otherwise. Then a status matching {@code statuses} ({@code 5xx}: any digit for each {@code x}) is
 * a failure.
 *
 * <p>SQL states are looked for on the exception and its causes, because pools and drivers often
 * wrap the driver's {@link SQLException}. Class names are compared with {@link Class#getName()},
 * which the JVM caches, so classifying allocates nothing.
 */
final class FailureClassifier {
  private static final int MAX_CAUSES = 8;

  private final boolean[] failingStatus = new boolean[1000];
  private final String[] exceptions;
  private final String[] ignoreExceptions;
  private final String[] ignoreSqlStates;

  FailureClassifier(FailureSpec spec) {
    for (String pattern : spec.statuses) {
      for (int status = 100; status < 1000; status++) {
        if (statusMatches(pattern, status)) {
          failingStatus[status] = true;
        }
      }
    }
    this.exceptions = toArray(spec.exceptions);
    this.ignoreExceptions = toArray(spec.ignoreExceptions);
    this.ignoreSqlStates = toArray(spec.ignoreSqlStates);
  }

  /** {@link Outcome#SUCCESS}, {@link Outcome#FAILURE} or {@link Outcome#IGNORED}; never slow. */
  Outcome classify(int status, Throwable error) {
    if (status == Dispatcher.STATUS_ABANDONED) {
      return Outcome.IGNORED;
    }
    if (error != null) {
      if (namedIn(ignoreExceptions, error) || ignoredSqlState(error)) {
        return Outcome.IGNORED;
      }
      if (exceptions.length == 0 || namedIn(exceptions, error)) {
        return Outcome.FAILURE;
      }
    }
    return status >= 0 && status < 1000 && failingStatus[status]
        ? Outcome.FAILURE
        : Outcome.SUCCESS;
  }

  private static boolean namedIn(String[] names, Throwable error) {
    if (names.length == 0) {
      return false;
    }
    for (Class<?> c = error.getClass(); c != null; c = c.getSuperclass()) {
      String name = c.getName();
      for (String n : names) {
        if (n.equals(name) || isSimpleNameOf(n, name)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * {@code SocketTimeoutException} names {@code java.net.SocketTimeoutException}, as users write
   * it.
   */
  private static boolean isSimpleNameOf(String simple, String name) {
    int dot = name.length() - simple.length() - 1;
    return simple.indexOf('.') < 0
        && dot > 0
        && name.endsWith(simple)
        && (name.charAt(dot) == '.' || name.charAt(dot) == '$');
  }

  private boolean ignoredSqlState(Throwable error) {
    if (ignoreSqlStates.length == 0) {
      return false;
    }
    Throwable t = error;
    for (int depth = 0; t != null && depth < MAX_CAUSES; depth++, t = t.getCause()) {
      if (t instanceof SQLException) {
        String state = ((SQLException) t).getSQLState();
        if (state != null) {
          for (String pattern : ignoreSqlStates) {
            if (glob(pattern, 0, state, 0)) {
              return true;
            }
          }
        }
      }
    }
    return false;
  }

  static boolean statusMatches(String pattern, int status) {
    String digits = Integer.toString(status);
    if (pattern.length() != digits.length()) {
      return false;
    }
    for (int i = 0; i < pattern.length(); i++) {
      char p = pattern.charAt(i);
      if (p != 'x' && p != 'X' && p != digits.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** {@code *} matches any run of characters, including none; everything else itself. */
  static boolean glob(String pattern, int p, String text, int t) {
    while (p < pattern.length()) {
      char c = pattern.charAt(p);
      if (c == '*') {
        for (int i = t; i <= text.length(); i++) {
          if (glob(pattern, p + 1, text, i)) {
            return true;
          }
        }
        return false;
      }
      if (t >= text.length() || Character.toUpperCase(c) != Character.toUpperCase(text.charAt(t))) {
        return false;
      }
      p++;
      t++;
    }
    return t == text.length();
  }

  private static String[] toArray(List<String> values) {
    return values.toArray(new String[0]);
  }
}
