package io.levee.agent.cli;

/** A command that failed for a reason the user can act on; the message says what to do. */
final class CliFailure extends Exception {
  CliFailure(String message) {
    super(message);
  }
}
