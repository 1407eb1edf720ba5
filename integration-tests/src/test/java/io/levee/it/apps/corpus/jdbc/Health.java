package io.levee.it.apps.corpus.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The pool after a combination: a fresh connection still answers, and every connection lent out
 * came back. Some pools (c3p0) take a connection back on a helper thread, so the count is read
 * until it is zero or two seconds have passed.
 */
final class Health {
  private Health() {}

  static void check(Connections connections, Database db, Out out) throws SQLException {
    try (Connection c = connections.get();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(db.ping())) {
      rs.next();
      out.put("ping", rs.getInt(1));
    }
    int active = connections.active();
    long deadline = System.nanoTime() + 2_000_000_000L;
    while (active > 0 && System.nanoTime() < deadline) {
      sleep();
      active = connections.active();
    }
    if (active >= 0) {
      out.put("active", active);
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
