package io.levee.rules.match;

/**
 * A pattern that does not parse: what is wrong, how a good one looks, and where in the pattern the
 * problem starts, so that the loader can point at the very character in the rules file.
 *
 * <p>The message reads {@code <problem>, <hint>, got '<pattern>'}, the form of every other error of
 * the loader.
 */
public final class PatternException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** The offset of a problem with the pattern as a whole rather than with one character of it. */
  public static final int WHOLE = -1;

  private final String problem;
  private final String hint;
  private final int offset;

  PatternException(String pattern, int offset, String problem, String hint) {
    super(problem + ", " + hint + ", got '" + pattern + "'");
    this.problem = problem;
    this.hint = hint;
    this.offset = offset;
  }

  /** What is wrong, such as "`**` must be a whole segment". */
  public String problem() {
    return problem;
  }

  /** How a good pattern looks, such as "like /shop/**". */
  public String hint() {
    return hint;
  }

  /** The index in the pattern where the problem starts, or {@link #WHOLE}. */
  public int offset() {
    return offset;
  }

  /** Whether {@code c} is blank: a space, tab, line feed, vertical tab, form feed or CR. */
  static boolean isBlank(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
  }

  /** The index of the first blank character of text[from, to), or -1. */
  static int firstBlank(String text, int from, int to) {
    for (int i = from; i < to; i++) {
      if (isBlank(text.charAt(i))) {
        return i;
      }
    }
    return -1;
  }

  /** A character as a message names it: {@code `@`}, or "a space" for a blank or control one. */
  static String describe(char c) {
    if (c == ' ') {
      return "a space";
    }
    if (c == '\t') {
      return "a tab";
    }
    if (c == '\n' || c == '\r') {
      return "a line break";
    }
    if (c < ' ' || c == '\u007F') {
      return String.format(java.util.Locale.ROOT, "the control character U+%04X", (int) c);
    }
    return "`" + c + "`";
  }
}
