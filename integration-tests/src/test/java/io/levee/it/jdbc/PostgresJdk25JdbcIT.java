package io.levee.it.jdbc;

class PostgresJdk25JdbcIT extends JdbcContract {
  @Override
  protected String db() {
    return "pg";
  }

  @Override
  protected String pool() {
    return "none";
  }

  @Override
  protected int jdk() {
    return 25;
  }
}
