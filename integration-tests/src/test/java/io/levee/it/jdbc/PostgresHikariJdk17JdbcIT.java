package io.levee.it.jdbc;

class PostgresHikariJdk17JdbcIT extends PostgresJdbcContract {
  @Override
  protected String pool() {
    return "hikari";
  }

  @Override
  protected int jdk() {
    return 17;
  }
}
