package com.zaxxer.hikari.pool;

import io.levee.bootstrap.jdbc.PoolRefill;

/** Stands in for HikariCP's connection adder: code of the pool's package on the stack. */
public final class FakePoolThread {
  private FakePoolThread() {}

  public static boolean connectSeesPoolRefill() {
    return PoolRefill.onThisThread();
  }
}
