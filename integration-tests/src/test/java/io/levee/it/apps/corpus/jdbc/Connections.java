package io.levee.it.apps.corpus.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Where a combination gets its connections: {@code DriverManager} or a pool over one database. */
interface Connections extends AutoCloseable {
  Connection get() throws SQLException;

  /** The pool as a {@link DataSource}, for an ORM to take. */
  DataSource dataSource();

  /** Connections lent out and not yet given back, as the pool counts them; -1 without a pool. */
  int active() throws SQLException;

  @Override
  void close();
}
