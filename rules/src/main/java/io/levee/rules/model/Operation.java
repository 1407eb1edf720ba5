package io.levee.rules.model;

/** What a JDBC call does, as {@code match.jdbc.operations} names it. */
public enum Operation {
  SELECT,
  INSERT,
  UPDATE,
  DELETE,
  CALL,
  DDL,
  OTHER,
  CONNECT
}
