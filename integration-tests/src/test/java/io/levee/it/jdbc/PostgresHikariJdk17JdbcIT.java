package io.levee.it.jdbc;

class PostgresHikariJdk17JdbcIT extends JdbcContract {
  @Override
  protected String db() {
    return "pg";
  }

  @Override
  protected String pool() {
    return "hikari";
  }

  @Override
  protected int jdk() {
    return 17;
  }
}
