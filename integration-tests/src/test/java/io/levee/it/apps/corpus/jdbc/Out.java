package io.levee.it.apps.corpus.jdbc;

import java.io.PrintStream;
import java.sql.SQLException;

/**
 * What the corpus application shows of a run: one {@code key: value} line per observation, under a
 * {@code == combination} header. Only what the application can see goes here (rows, update counts,
 * exception classes and SQLStates), never a time, an address or a message a server words freely.
 */
final class Out {
  /** What a blocked statement's message starts with (SPEC §2, on-block jdbc). */
  private static final String LEVEE = "levee:";

  private final PrintStream stream;

  Out(PrintStream stream) {
    this.stream = stream;
  }

  void section(String name) {
    stream.println("== " + name);
  }

  void put(String key, Object value) {
    stream.println(key + ": " + value);
  }

  void flush() {
    stream.flush();
  }

  /**
   * An exception as the application sees it: each class of its cause chain, outermost first, with
   * the SQLState of each {@link SQLException}; and the message of the innermost one if the agent
   * wrote it (a database's own messages are left out: they may name a server port or connection
   * id).
   */
  static String chain(Throwable thrown) {
    StringBuilder text = new StringBuilder();
    Throwable root = thrown;
    for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (text.length() > 0) {
        text.append(" <- ");
      }
      text.append(t.getClass().getName());
      if (t instanceof SQLException) {
        text.append('[').append(((SQLException) t).getSQLState()).append(']');
      }
      root = t;
    }
    String message = root.getMessage();
    if (message != null && message.startsWith(LEVEE)) {
      text.append(" \"").append(message).append('"');
    }
    return text.toString();
  }
}
