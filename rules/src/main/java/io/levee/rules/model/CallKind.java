package io.levee.rules.model;

import io.levee.bootstrap.Kind;

/** The kind of call a resource matches; {@link #id} is the bridge's {@link Kind} constant. */
public enum CallKind {
  SERVLET(Kind.SERVLET, "servlet"),
  HTTP(Kind.HTTP, "http"),
  JDBC(Kind.JDBC, "jdbc"),
  METHOD(Kind.METHOD, "method");

  public final int id;
  public final String key;

  CallKind(int id, String key) {
    this.id = id;
    this.key = key;
  }
}
