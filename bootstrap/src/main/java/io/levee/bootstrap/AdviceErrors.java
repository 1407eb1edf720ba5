package io.levee.bootstrap;

/**
 * Where advice reports an exception of its own. Advice suppresses every throwable so the application
 * never sees one; the instrumentation routes the suppressed throwable here so the agent can log it.
 */
public final class AdviceErrors {
  private AdviceErrors() {}

  public static void report(Throwable error) {
    try {
      Levee.dispatcher().internalError(error);
    } catch (Throwable ignored) {
      // The agent's own error handler failed; there is nothing safe left to do.
    }
  }
}
