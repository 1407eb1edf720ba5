package io.levee.it.jdbc;

class PostgresJdk17JdbcIT extends PostgresJdbcContract {
  @Override
  protected String pool() {
    return "none";
  }

  @Override
  protected int jdk() {
    return 17;
  }
}
