package io.levee.rules.load;

/**
 * One problem found in a rules file, at a 1-based line and column, with the path of the key it
 * concerns ({@code resources[2].rate-limit.rate}; empty when the YAML itself cannot be read).
 */
public final class RuleError implements Comparable<RuleError> {
  private final String file;
  private final int line;
  private final int column;
  private final String path;
  private final String message;

  public RuleError(String file, int line, int column, String path, String message) {
    this.file = file;
    this.line = line;
    this.column = column;
    this.path = path;
    this.message = message;
  }

  public String file() {
    return file;
  }

  public int line() {
    return line;
  }

  public int column() {
    return column;
  }

  public String path() {
    return path;
  }

  public String message() {
    return message;
  }

  @Override
  public int compareTo(RuleError o) {
    return line != o.line ? Integer.compare(line, o.line) : Integer.compare(column, o.column);
  }

  /** {@code file:line:column: path: message}; the path part is left out when there is none. */
  @Override
  public String toString() {
    String where = file + ":" + line + ":" + column + ": ";
    return path.isEmpty() ? where + message : where + path + ": " + message;
  }
}
