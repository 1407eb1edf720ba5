package io.levee.it.apps.corpus.jdbc;

import java.util.List;

/**
 * One way the corpus reaches one database. Not every pool meets every database: each pool runs over
 * two of them, and every database is reached through {@code DriverManager} and at least one pool.
 */
public record Combination(Access access, Database database) {
  public static final List<Combination> ALL =
      List.of(
          new Combination(Access.DRIVER_MANAGER, Database.POSTGRESQL),
          new Combination(Access.DRIVER_MANAGER, Database.MARIADB),
          new Combination(Access.DRIVER_MANAGER, Database.MARIADB_CONNECTOR_J),
          new Combination(Access.DRIVER_MANAGER, Database.HSQLDB),
          new Combination(Access.DRIVER_MANAGER, Database.DERBY),
          new Combination(Access.DRIVER_MANAGER, Database.SQLITE),
          new Combination(Access.HIKARI, Database.POSTGRESQL),
          new Combination(Access.HIKARI, Database.SQLITE),
          new Combination(Access.DBCP2, Database.MARIADB),
          new Combination(Access.DBCP2, Database.DERBY),
          new Combination(Access.C3P0, Database.HSQLDB),
          new Combination(Access.C3P0, Database.POSTGRESQL),
          new Combination(Access.TOMCAT_JDBC, Database.MARIADB_CONNECTOR_J),
          new Combination(Access.TOMCAT_JDBC, Database.DERBY),
          new Combination(Access.DRUID, Database.MARIADB),
          new Combination(Access.DRUID, Database.HSQLDB),
          new Combination(Access.MYBATIS, Database.MARIADB_CONNECTOR_J),
          new Combination(Access.HIBERNATE, Database.POSTGRESQL));

  /** {@code access/database}, as the application takes it on its command line. */
  public String name() {
    return access.id + "/" + database.id;
  }

  public static Combination byName(String name) {
    return ALL.stream()
        .filter(c -> c.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no combination " + name));
  }

  /** The table of this combination's script: its own, as combinations share servers. */
  String table() {
    return ("corpus_" + access.id + "_" + database.id).replace('-', '_');
  }

  /**
   * The table whose SELECTs the enforcing run's rules limit: one per combination, so that each has
   * its own resource and its own token bucket.
   */
  public String guardTable() {
    return ("corpus_guard_" + access.id + "_" + database.id).replace('-', '_');
  }
}
