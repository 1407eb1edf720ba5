package io.levee.it.jdbc;

class PostgresJdk25JdbcIT extends PostgresJdbcContract {
  @Override
  protected String pool() {
    return "none";
  }

  @Override
  protected int jdk() {
    return 25;
  }
}
