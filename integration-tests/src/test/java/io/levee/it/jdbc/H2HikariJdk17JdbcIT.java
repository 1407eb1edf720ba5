package io.levee.it.jdbc;

class H2HikariJdk17JdbcIT extends JdbcContract {
  @Override
  protected String db() {
    return "h2";
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
