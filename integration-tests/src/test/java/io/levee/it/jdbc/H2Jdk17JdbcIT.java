package io.levee.it.jdbc;

class H2Jdk17JdbcIT extends JdbcContract {
  @Override
  protected String db() {
    return "h2";
  }

  @Override
  protected String pool() {
    return "none";
  }

  @Override
  protected int jdk() {
    return 17;
  }
}
