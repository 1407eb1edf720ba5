package io.levee.agent.log;

import java.io.Closeable;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;

/**
 * The agent's own log: one line {@code [levee] LEVEL message} per event, to stderr or to the {@code
 * log-file} option's file, never through the application's logging (and never JUL, whose
 * initialisation during premain breaks some containers). A stack trace follows a line only at
 * {@code debug}.
 *
 * <p>Concurrency: any thread may log; each event is written under the stream's lock so lines never
 * interleave. The level is fixed at construction. After {@link #close} a log file takes no more
 * lines (a closed {@code PrintStream} drops them).
 */
public final class AgentLog implements EventLog, Closeable {
  public enum Level {
    ERROR,
    WARN,
    INFO,
    DEBUG;

    /**
     * {@code error}, {@code warn}, {@code info} or {@code debug} in any case; null for anything
     * else.
     */
    public static Level parse(String text) {
      for (Level level : values()) {
        if (level.name().equalsIgnoreCase(text)) {
          return level;
        }
      }
      return null;
    }
  }

  public static final AgentLog STDERR = new AgentLog(System.err, Level.INFO);

  private final PrintStream out;
  private final Level level;
  private final boolean ownsOut;

  public AgentLog(PrintStream out, Level level) {
    this(out, level, false);
  }

  private AgentLog(PrintStream out, Level level, boolean ownsOut) {
    this.out = out;
    this.level = level;
    this.ownsOut = ownsOut;
  }

  /**
   * The log of a start: {@code file} (appended to), or stderr when it is null or cannot be written.
   */
  public static AgentLog open(String file, Level level) {
    if (file == null) {
      return new AgentLog(System.err, level);
    }
    try {
      PrintStream out = new PrintStream(new FileOutputStream(file, true), true, "UTF-8");
      return new AgentLog(out, level, true);
    } catch (IOException e) {
      AgentLog log = new AgentLog(System.err, level);
      log.warn("cannot write the log file " + file + " (" + e + "): logging to stderr");
      return log;
    }
  }

  /** Closes the log file this log opened; a stream it was given (stderr) stays open. */
  @Override
  public void close() {
    if (ownsOut) {
      synchronized (out) {
        out.close();
      }
    }
  }

  public boolean enabled(Level at) {
    return at.ordinal() <= level.ordinal();
  }

  public void error(String message) {
    write(Level.ERROR, message, null);
  }

  public void error(String message, Throwable error) {
    write(Level.ERROR, message, error);
  }

  public void warn(String message) {
    write(Level.WARN, message, null);
  }

  public void warn(String message, Throwable error) {
    write(Level.WARN, message, error);
  }

  public void info(String message) {
    write(Level.INFO, message, null);
  }

  @Override
  public boolean debugging() {
    return enabled(Level.DEBUG);
  }

  @Override
  public void debug(String message) {
    write(Level.DEBUG, message, null);
  }

  private void write(Level at, String message, Throwable error) {
    if (!enabled(at)) {
      return;
    }
    String line = "[levee] " + at.name() + " " + message + (error == null ? "" : ": " + error);
    synchronized (out) {
      out.println(line);
      if (error != null && enabled(Level.DEBUG)) {
        error.printStackTrace(out);
      }
      out.flush();
    }
  }
}
