package io.levee.bootstrap;

/**
 * Where the bridge's hooks report an exception of their own. They catch every throwable of theirs
 * so the application never sees one, and hand it here so the agent can log it.
 */
public final class HookErrors {
  private HookErrors() {}

  public static void report(Throwable error) {
    try {
      Levee.dispatcher().internalError(error);
    } catch (Throwable ignored) {
      // The agent's own error handler failed; there is nothing safe left to do.
    }
  }
}
