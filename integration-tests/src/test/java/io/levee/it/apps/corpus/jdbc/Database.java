package io.levee.it.apps.corpus.jdbc;

import java.util.List;

/**
 * A database of the corpus as a driver reaches it: where it is, and the little SQL that differs
 * between them (a liveness query, dropping what a run before left, a stored routine). MariaDB is
 * there twice, once through its own driver and once through MySQL Connector/J.
 *
 * <p>PostgreSQL and MariaDB are servers that outlive a run (the three ways use them one after the
 * other), so every table is dropped before it is made; HSQLDB, Derby and SQLite are new in each
 * JVM.
 */
public enum Database {
  POSTGRESQL("postgresql", "jdbc:postgresql://**", "SELECT 1", true),
  MARIADB("mariadb", "jdbc:mariadb://**", "SELECT 1", true),
  MARIADB_CONNECTOR_J("mariadb-cj", "jdbc:mysql://**", "SELECT 1", true),
  HSQLDB("hsqldb", "jdbc:hsqldb:mem:*", "VALUES (1)", false),
  DERBY("derby", "jdbc:derby://**", "VALUES 1", false),
  SQLITE("sqlite", "jdbc:sqlite:**", "SELECT 1", false);

  /**
   * The server a {@link #needs} database is on: given by environment variables, opted out by
   * another.
   */
  public enum Server {
    POSTGRESQL("LEVEE_PG", "LEVEE_SKIP_PG"),
    MARIADB("LEVEE_MARIADB", "LEVEE_SKIP_MARIADB");

    /** Prefix of {@code _URL}, {@code _USER}, {@code _PASSWORD}. */
    public final String env;

    public final String skip;

    Server(String env, String skip) {
      this.env = env;
      this.skip = skip;
    }

    public String url() {
      return System.getenv(env + "_URL");
    }

    public boolean skipped() {
      return "1".equals(System.getenv(skip));
    }
  }

  public final String id;

  /** A JDBC URL pattern of the rules file that matches this database and no other of the corpus. */
  public final String urlPattern;

  private final String ping;
  private final boolean outlivesRun;

  Database(String id, String urlPattern, String ping, boolean outlivesRun) {
    this.id = id;
    this.urlPattern = urlPattern;
    this.ping = ping;
    this.outlivesRun = outlivesRun;
  }

  /** The external server this database needs, or null for one that runs in the corpus JVM. */
  public Server needs() {
    switch (this) {
      case POSTGRESQL:
        return Server.POSTGRESQL;
      case MARIADB:
      case MARIADB_CONNECTOR_J:
        return Server.MARIADB;
      default:
        return null;
    }
  }

  /** The JDBC URL, for this JVM (Derby's server and SQLite's file are made on first use). */
  String url() {
    switch (this) {
      case POSTGRESQL:
        return Server.POSTGRESQL.url();
      case MARIADB:
        return Server.MARIADB.url();
      case MARIADB_CONNECTOR_J:
        // The same server through the other driver; TLS off so that no run depends on its
        // fallback from "preferred".
        return Server.MARIADB.url().replaceFirst("^jdbc:mariadb:", "jdbc:mysql:")
            + "?sslMode=DISABLED&allowPublicKeyRetrieval=true";
      case HSQLDB:
        return "jdbc:hsqldb:mem:corpus";
      case DERBY:
        return DerbyServer.url();
      case SQLITE:
        return SqliteFile.url();
      default:
        throw new IllegalStateException(name());
    }
  }

  String user() {
    Server server = needs();
    return server == null
        ? (this == HSQLDB ? "SA" : "corpus")
        : System.getenv(server.env + "_USER");
  }

  String password() {
    Server server = needs();
    return server == null ? "corpus" : System.getenv(server.env + "_PASSWORD");
  }

  /** The driver class, as a pool's configuration names it. */
  String driverClass() {
    switch (this) {
      case POSTGRESQL:
        return "org.postgresql.Driver";
      case MARIADB:
        return "org.mariadb.jdbc.Driver";
      case MARIADB_CONNECTOR_J:
        return "com.mysql.cj.jdbc.Driver";
      case HSQLDB:
        return "org.hsqldb.jdbc.JDBCDriver";
      case DERBY:
        return "org.apache.derby.client.ClientAutoloadedDriver";
      case SQLITE:
        return "org.sqlite.JDBC";
      default:
        throw new IllegalStateException(name());
    }
  }

  /** A statement that returns one row with the number 1. */
  String ping() {
    return ping;
  }

  /**
   * Statements that remove {@code table} as an earlier run may have left it; none where no run did.
   */
  List<String> dropTable(String table) {
    return outlivesRun ? List.of("DROP TABLE IF EXISTS " + table) : List.of();
  }

  /**
   * A routine {@code routine(x)} that doubles {@code x}, called through a {@code
   * CallableStatement}; null for SQLite, which has none.
   */
  Routine routine(String routine) {
    switch (this) {
      case POSTGRESQL:
        return new Routine(
            List.of(
                "CREATE OR REPLACE FUNCTION "
                    + routine
                    + "(x INT) RETURNS INT LANGUAGE sql AS"
                    + " 'SELECT x * 2'"),
            "{? = call " + routine + "(?)}",
            2,
            1,
            List.of("DROP FUNCTION IF EXISTS " + routine + "(INT)"));
      case MARIADB:
      case MARIADB_CONNECTOR_J:
        return new Routine(
            List.of(
                "DROP PROCEDURE IF EXISTS " + routine,
                "CREATE PROCEDURE " + routine + "(IN x INT, OUT y INT) SET y = x * 2"),
            "{call " + routine + "(?, ?)}",
            1,
            2,
            List.of("DROP PROCEDURE IF EXISTS " + routine));
      case HSQLDB:
        return new Routine(
            List.of("CREATE PROCEDURE " + routine + "(IN x INT, OUT y INT) SET y = x * 2"),
            "{call " + routine + "(?, ?)}",
            1,
            2,
            List.of("DROP PROCEDURE " + routine));
      case DERBY:
        return new Routine(
            List.of(
                "CREATE PROCEDURE "
                    + routine
                    + "(IN x INT, OUT y INT) LANGUAGE JAVA PARAMETER STYLE JAVA NO SQL"
                    + " EXTERNAL NAME '"
                    + DerbyProcedures.class.getName()
                    + ".twice'"),
            "{call " + routine + "(?, ?)}",
            1,
            2,
            List.of("DROP PROCEDURE " + routine));
      default:
        return null;
    }
  }

  /** How to make, call and remove a routine: the call's IN and OUT parameter indexes. */
  record Routine(List<String> create, String call, int in, int out, List<String> drop) {}

  public static Database byId(String id) {
    for (Database d : values()) {
      if (d.id.equals(id)) {
        return d;
      }
    }
    throw new IllegalArgumentException("no database " + id);
  }
}
