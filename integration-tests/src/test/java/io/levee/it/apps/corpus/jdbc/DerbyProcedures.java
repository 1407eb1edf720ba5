package io.levee.it.apps.corpus.jdbc;

/**
 * Derby's stored procedures are Java methods; the network server runs this one in the corpus JVM.
 */
public final class DerbyProcedures {
  private DerbyProcedures() {}

  /** {@code CALL twice(x, ?)}: the OUT parameter is the array's one element, as Derby passes it. */
  public static void twice(int x, int[] y) {
    y[0] = x * 2;
  }
}
