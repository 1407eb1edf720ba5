package io.levee.it.apps.corpus.jdbc;

/**
 * How a combination reaches its database: straight through a driver, a pool, or an ORM on a pool.
 */
public enum Access {
  DRIVER_MANAGER("driver-manager"),
  HIKARI("hikari"),
  DBCP2("dbcp2"),
  C3P0("c3p0"),
  TOMCAT_JDBC("tomcat-jdbc"),
  DRUID("druid"),
  /** MyBatis on a Druid pool, as the two are commonly run together. */
  MYBATIS("mybatis-druid"),
  /** Hibernate ORM on a HikariCP pool, as Spring Boot sets it up by default. */
  HIBERNATE("hibernate-hikari");

  public final String id;

  Access(String id) {
    this.id = id;
  }

  /** The pool this access gets its connections from: itself, or the one under the ORM. */
  public Access pool() {
    switch (this) {
      case MYBATIS:
        return DRUID;
      case HIBERNATE:
        return HIKARI;
      default:
        return this;
    }
  }
}
