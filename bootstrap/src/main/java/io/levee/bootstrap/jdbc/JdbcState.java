package io.levee.bootstrap.jdbc;

import io.levee.bootstrap.Faults;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.WeakIdentityMap;
import java.lang.reflect.Method;

/**
 * What the JDBC hooks remember about application objects, on java.base types only: the SQL a
 * statement was prepared with, the first SQL of a plain statement's batch, and the JDBC URL of a
 * connection or data source, found once and cached.
 *
 * <p>Concurrency: the maps are {@link WeakIdentityMap}s; readers take no lock. A URL is looked up
 * outside any lock (a driver's {@code getMetaData} may call back into the application or run a
 * statement), so two threads may look it up at once and both store the same answer.
 */
public final class JdbcState {
  /** Statement → SQL. Overwritten at every prepare, because drivers reuse statement objects. */
  public static final WeakIdentityMap<String> SQL = new WeakIdentityMap<String>();

  /**
   * Plain statement → the first SQL added to its batch; cleared when the batch runs or is cleared.
   */
  public static final WeakIdentityMap<String> BATCH = new WeakIdentityMap<String>();

  /** Connection or data source → JDBC URL. */
  public static final WeakIdentityMap<String> URL = new WeakIdentityMap<String>();

  /**
   * Getters that common data sources (HikariCP, c3p0, DBCP, tomcat-jdbc, H2, PostgreSQL, MySQL,
   * Oracle) expose.
   */
  private static final String[] URL_GETTERS = {"getJdbcUrl", "getUrl", "getURL"};

  private JdbcState() {}

  /**
   * Records the SQL of a statement the application just prepared on {@code connection}, when a rule
   * for its database may need it. Remembering it costs an entry with a weak key per statement, and
   * most rules (and every unprotected database) never read it. A statement prepared while no rule
   * read its SQL is later decided as one whose SQL is unknown, as one prepared before an attach.
   */
  public static void prepared(Object connection, Object statement, String sql) {
    Faults.at(Faults.JDBC_STATE);
    if (Levee.jdbcReadsSql(URL.get(connection))) {
      SQL.put(statement, sql);
    }
  }

  /** Records the first SQL of a plain statement's batch; the batch is decided under that SQL. */
  public static void batched(Object statement, String sql) {
    if (BATCH.get(statement) == null) {
      BATCH.put(statement, sql);
    }
  }

  /**
   * The JDBC URL a data source connects to, read once through its usual getter and cached; null
   * when it has none, until {@link #learnedUrl} records the URL of a connection it handed out.
   */
  public static String dataSourceUrl(Object dataSource) {
    Faults.at(Faults.JDBC_STATE);
    String url = URL.get(dataSource);
    if (url != null) {
      return url;
    }
    url = readUrlGetter(dataSource);
    if (url != null) {
      URL.put(dataSource, url);
    }
    return url;
  }

  /** Caches {@code url} for {@code owner} unless it already has one. */
  public static void learnedUrl(Object owner, String url) {
    Faults.at(Faults.JDBC_STATE);
    if (url != null && URL.get(owner) == null) {
      URL.put(owner, url);
    }
  }

  private static String readUrlGetter(Object target) {
    for (String name : URL_GETTERS) {
      try {
        Method getter = target.getClass().getMethod(name);
        if (getter.getReturnType() == String.class) {
          Object value = getter.invoke(target);
          if (value != null) {
            return (String) value;
          }
        }
      } catch (Throwable ignored) {
        // Not this getter, or a class we may not call; try the next one.
      }
    }
    return null;
  }
}
