package io.levee.it.apps;

/** Builds the {@code key=value} lines the outbound endpoints answer with (see the tests' Reply). */
public final class Lines {
  private final StringBuilder text = new StringBuilder();

  public Lines put(String key, Object value) {
    String v = String.valueOf(value).replace("\r", "").replace("\n", "\\n");
    text.append(key).append('=').append(v).append('\n');
    return this;
  }

  /** {@code class}, {@code message} and, for SQL, {@code sqlState} of a failure. */
  public Lines exception(Throwable e) {
    put("outcome", "exception").put("class", e.getClass().getName()).put("message", e.getMessage());
    if (e instanceof java.sql.SQLException) {
      put("sqlState", ((java.sql.SQLException) e).getSQLState());
    }
    return this;
  }

  @Override
  public String toString() {
    return text.toString();
  }
}
