package io.levee.bootstrap;

/** The kinds of call site Levee intercepts, as small ints so they cross the bridge cheaply. */
public final class Kind {
  public static final int SERVLET = 0;
  public static final int HTTP = 1;
  public static final int JDBC = 2;
  public static final int METHOD = 3;
  public static final int COUNT = 4;

  private Kind() {}
}
