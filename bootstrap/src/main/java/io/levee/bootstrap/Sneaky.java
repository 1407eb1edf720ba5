package io.levee.bootstrap;

/**
 * Throws a checked exception from a method that does not declare it. The woven code of a blocked
 * call throws what the intercepted method would throw ({@code SQLException}, {@code IOException}),
 * which the bridge's static methods cannot declare for every method they serve; the JVM does not
 * check declared exceptions, only the compiler does.
 */
public final class Sneaky {
  private Sneaky() {}

  /**
   * Throws {@code error}; declared to return one so that callers can write {@code throw raise(e)}.
   */
  public static RuntimeException raise(Throwable error) {
    Sneaky.<RuntimeException>raise0(error);
    return null;
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> void raise0(Throwable error) throws T {
    throw (T) error;
  }
}
