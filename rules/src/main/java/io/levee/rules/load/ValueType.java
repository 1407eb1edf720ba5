package io.levee.rules.load;

/**
 * How one kind of scalar is read: what it is called in messages ("a duration like 250ms or 2s") and
 * how its text becomes a value. A parse that fails throws {@link Bad}: without a message the reader
 * says "expected &lt;what&gt;, got '&lt;text&gt;'", with one it says exactly that, at the character
 * it names when it names one.
 */
final class ValueType<T> {
  interface Parse<T> {
    T parse(String text) throws Bad;
  }

  final String expected;
  private final Parse<T> parse;

  private ValueType(String expected, Parse<T> parse) {
    this.expected = expected;
    this.parse = parse;
  }

  static <T> ValueType<T> of(String expected, Parse<T> parse) {
    return new ValueType<T>(expected, parse);
  }

  T parse(String text) throws Bad {
    return parse.parse(text);
  }

  /** A value that is not valid; thrown only while reading, never out of the loader. */
  static final class Bad extends Exception {
    private static final long serialVersionUID = 1L;

    /** Where in the text the problem starts, or -1 for the text as a whole. */
    final int offset;

    /** The value does not have the expected form. */
    Bad() {
      this(null, -1);
    }

    /** The value has the form but not an acceptable value: the message says why. */
    Bad(String message) {
      this(message, -1);
    }

    /** The message says why, and the problem starts at {@code offset} in the text. */
    Bad(String message, int offset) {
      super(message, null, false, false);
      this.offset = offset;
    }
  }
}
