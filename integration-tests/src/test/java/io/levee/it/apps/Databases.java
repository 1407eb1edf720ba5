package io.levee.it.apps;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The databases a test application reaches: {@code h2} (in memory, with {@code pg_sleep} and {@code
 * levee_double} defined) and {@code pg} (the server in {@code LEVEE_PG_URL}), each either straight
 * through {@link DriverManager} ({@code pool=none}) or through a HikariCP pool ({@code
 * pool=hikari}), created on first use, whose {@code getConnection} waits {@code
 * LEVEE_POOL_TIMEOUT_MS} (10 s) at most.
 */
public final class Databases {
  private static final String H2_URL =
      "jdbc:h2:mem:levee;DB_CLOSE_DELAY=-1;"
          + "INIT=CREATE ALIAS IF NOT EXISTS PG_SLEEP FOR 'io.levee.it.apps.H2Functions.pgSleep'"
          + "\\;CREATE ALIAS IF NOT EXISTS LEVEE_DOUBLE"
          + " FOR 'io.levee.it.apps.H2Functions.leveeDouble'";
  private static final Map<String, HikariDataSource> POOLS = new ConcurrentHashMap<>();

  private Databases() {}

  public static Connection connect(String db, String pool) throws SQLException {
    if ("hikari".equals(pool)) {
      return POOLS.computeIfAbsent(db, Databases::newPool).getConnection();
    }
    return DriverManager.getConnection(url(db), user(db), password(db));
  }

  /** The pool of {@code db}, or null before its first {@code pool=hikari} connection. */
  static HikariDataSource pool(String db) {
    return POOLS.get(db);
  }

  private static HikariDataSource newPool(String db) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("app-" + db);
    config.setJdbcUrl(url(db));
    config.setUsername(user(db));
    config.setPassword(password(db));
    config.setMaximumPoolSize(10);
    config.setMinimumIdle(2);
    config.setConnectionTimeout(Long.parseLong(env("LEVEE_POOL_TIMEOUT_MS", "10000")));
    config.setMetricsTrackerFactory(PoolCounts.FACTORY);
    return new HikariDataSource(config);
  }

  private static String url(String db) {
    switch (db) {
      case "h2":
        return H2_URL;
      case "pg":
        return env("LEVEE_PG_URL", null);
      default:
        throw new IllegalArgumentException("unknown db " + db);
    }
  }

  private static String user(String db) {
    return "pg".equals(db) ? env("LEVEE_PG_USER", "levee") : "sa";
  }

  private static String password(String db) {
    return "pg".equals(db) ? env("LEVEE_PG_PASSWORD", "") : "";
  }

  private static String env(String name, String otherwise) {
    String value = System.getenv(name);
    if (value == null || value.isEmpty()) {
      if (otherwise == null) {
        throw new IllegalStateException(name + " is not set");
      }
      return otherwise;
    }
    return value;
  }
}
