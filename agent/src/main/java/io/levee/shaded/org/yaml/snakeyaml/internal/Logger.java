package io.levee.shaded.org.yaml.snakeyaml.internal;

/**
 * Stands in for SnakeYAML's internal logger in the packaged agent, where SnakeYAML is relocated to
 * {@code io.levee.shaded.org.yaml.snakeyaml}. The original logs through {@code java.util.logging}
 * (Java 8) or {@code System.Logger} (9+, usually JUL again), and initialising JUL while the agent
 * starts breaks containers that install their own log manager later. The loader reports every
 * problem of a rules file itself, so SnakeYAML's few warnings are dropped.
 */
public class Logger {
  private static final Logger NONE = new Logger();

  /** The levels SnakeYAML asks about. */
  public enum Level {
    WARNING,
    DEBUG
  }

  private Logger() {}

  public static Logger getLogger(String name) {
    return NONE;
  }

  public boolean isLoggable(Level level) {
    return false;
  }

  public void warn(String message) {}

  public void debug(String message) {}
}
