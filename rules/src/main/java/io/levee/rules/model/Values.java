package io.levee.rules.model;

/** Null-safe equality and hashing for the model's value classes (Java 8 has no record). */
final class Values {
  private Values() {}

  static boolean eq(Object a, Object b) {
    return a == null ? b == null : a.equals(b);
  }

  static int hash(Object... values) {
    return java.util.Arrays.hashCode(values);
  }
}
