package io.levee.it.apps.corpus.jdbc;

import com.alibaba.druid.pool.DruidDataSource;
import com.mchange.v2.c3p0.ComboPooledDataSource;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.beans.PropertyVetoException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.apache.commons.dbcp2.BasicDataSource;

/**
 * Opens the {@link Connections} of an {@link Access} over a {@link Database}: each pool configured
 * as its documentation shows, small (at most two connections, one kept idle) and with the driver
 * class named, and asked for its count of lent-out connections through its own API.
 */
final class Pools {
  private static final int MAX = 2;
  private static final int WAIT_MS = 10_000;

  private Pools() {}

  static Connections open(Access access, Database db) throws SQLException {
    switch (access.pool()) {
      case DRIVER_MANAGER:
        return driverManager(db);
      case HIKARI:
        return hikari(db);
      case DBCP2:
        return dbcp2(db);
      case C3P0:
        return c3p0(db);
      case TOMCAT_JDBC:
        return tomcat(db);
      case DRUID:
        return druid(db);
      default:
        throw new IllegalArgumentException("no pool " + access);
    }
  }

  private static Connections driverManager(Database db) {
    String url = db.url();
    return new Connections() {
      @Override
      public Connection get() throws SQLException {
        return DriverManager.getConnection(url, db.user(), db.password());
      }

      @Override
      public DataSource dataSource() {
        throw new UnsupportedOperationException("every ORM of the corpus runs on a pool");
      }

      @Override
      public int active() {
        return -1;
      }

      @Override
      public void close() {}
    };
  }

  private static Connections hikari(Database db) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("corpus-" + db.id);
    config.setDriverClassName(db.driverClass());
    config.setJdbcUrl(db.url());
    config.setUsername(db.user());
    config.setPassword(db.password());
    config.setMaximumPoolSize(MAX);
    config.setMinimumIdle(1);
    config.setConnectionTimeout(WAIT_MS);
    HikariDataSource pool = new HikariDataSource(config);
    return new Pooled(pool, pool::close) {
      @Override
      public int active() {
        return pool.getHikariPoolMXBean().getActiveConnections();
      }
    };
  }

  private static Connections dbcp2(Database db) {
    BasicDataSource pool = new BasicDataSource();
    pool.setDriverClassName(db.driverClass());
    pool.setUrl(db.url());
    pool.setUsername(db.user());
    pool.setPassword(db.password());
    pool.setMaxTotal(MAX);
    pool.setInitialSize(1);
    pool.setMinIdle(1);
    pool.setMaxWait(Duration.ofMillis(WAIT_MS));
    return new Pooled(pool, () -> closeQuietly(pool)) {
      @Override
      public int active() {
        return pool.getNumActive();
      }
    };
  }

  private static Connections c3p0(Database db) throws SQLException {
    ComboPooledDataSource pool = new ComboPooledDataSource();
    try {
      pool.setDriverClass(db.driverClass());
    } catch (PropertyVetoException e) {
      throw new SQLException(e);
    }
    pool.setJdbcUrl(db.url());
    pool.setUser(db.user());
    pool.setPassword(db.password());
    pool.setMaxPoolSize(MAX);
    pool.setMinPoolSize(1);
    pool.setInitialPoolSize(1);
    pool.setCheckoutTimeout(WAIT_MS);
    return new Pooled(pool, pool::close) {
      @Override
      public int active() throws SQLException {
        return pool.getNumBusyConnectionsDefaultUser();
      }
    };
  }

  private static Connections tomcat(Database db) {
    org.apache.tomcat.jdbc.pool.DataSource pool = new org.apache.tomcat.jdbc.pool.DataSource();
    pool.setDriverClassName(db.driverClass());
    pool.setUrl(db.url());
    pool.setUsername(db.user());
    pool.setPassword(db.password());
    pool.setMaxActive(MAX);
    pool.setMaxIdle(MAX);
    pool.setInitialSize(1);
    pool.setMinIdle(1);
    pool.setMaxWait(WAIT_MS);
    pool.setJmxEnabled(false);
    return new Pooled(pool, () -> pool.close(true)) {
      @Override
      public int active() {
        return pool.getActive();
      }
    };
  }

  private static Connections druid(Database db) throws SQLException {
    DruidDataSource pool = new DruidDataSource();
    pool.setName("corpus-" + db.id);
    pool.setDriverClassName(db.driverClass());
    pool.setUrl(db.url());
    pool.setUsername(db.user());
    pool.setPassword(db.password());
    pool.setMaxActive(MAX);
    pool.setInitialSize(1);
    pool.setMinIdle(1);
    pool.setMaxWait(WAIT_MS);
    // Druid tests idle connections by default and says so at ERROR level when it has no query.
    pool.setValidationQuery(db.ping());
    pool.init();
    return new Pooled(pool, pool::close) {
      @Override
      public int active() {
        return pool.getActiveCount();
      }
    };
  }

  private static void closeQuietly(BasicDataSource pool) {
    try {
      pool.close();
    } catch (SQLException e) {
      throw new IllegalStateException("DBCP2 did not close", e);
    }
  }

  /** A pool: connections from its {@link DataSource}, closed by its own method. */
  private abstract static class Pooled implements Connections {
    private final DataSource pool;
    private final Runnable close;

    Pooled(DataSource pool, Runnable close) {
      this.pool = pool;
      this.close = close;
    }

    @Override
    public Connection get() throws SQLException {
      return pool.getConnection();
    }

    @Override
    public DataSource dataSource() {
      return pool;
    }

    @Override
    public void close() {
      close.run();
    }
  }
}
