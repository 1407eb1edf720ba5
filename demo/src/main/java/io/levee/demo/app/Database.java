package io.levee.demo.app;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The application's database: H2 in memory, opened per request through {@code DriverManager} as old
 * code does. {@code PAUSE(ms)} is a SQL function that stands for a query stuck on locks or disk;
 * the database itself counts how many run at once, so the demo can show a concurrency limit holding
 * without asking Levee.
 *
 * <p>Concurrency: {@code running} and {@code peak} are atomics written by every query thread;
 * {@link #takePeak()} reads and resets the peak, so a peak may miss a query that starts meanwhile.
 */
public final class Database {
  public static final String URL = "jdbc:h2:mem:shop;DB_CLOSE_DELAY=-1";
  private static final String[] TENANTS = {"acme", "globex", "initech"};
  private static final String[] REGIONS = {"north", "south", "east", "west"};

  private static final AtomicInteger running = new AtomicInteger();
  private static final AtomicInteger peak = new AtomicInteger();

  private Database() {}

  static Database create() throws SQLException {
    try (Connection c = DriverManager.getConnection(URL, "sa", "");
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE orders (id INT PRIMARY KEY, tenant VARCHAR(32), total DECIMAL(10,2))");
      s.execute(
          "CREATE TABLE sales (id INT PRIMARY KEY, region VARCHAR(16), amount DECIMAL(10,2))");
      s.execute("CREATE INDEX orders_tenant ON orders (tenant)");
      s.execute("CREATE ALIAS PAUSE FOR 'io.levee.demo.app.Database.pause'");
      try (PreparedStatement o = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?)");
          PreparedStatement p = c.prepareStatement("INSERT INTO sales VALUES (?, ?, ?)")) {
        for (int i = 1; i <= 3000; i++) {
          o.setInt(1, i);
          o.setString(2, TENANTS[i % TENANTS.length]);
          o.setDouble(3, (i * 37) % 500 + 0.99);
          o.addBatch();
          p.setInt(1, i);
          p.setString(2, REGIONS[i % REGIONS.length]);
          p.setDouble(3, (i * 53) % 900 + 0.5);
          p.addBatch();
        }
        o.executeBatch();
        p.executeBatch();
      }
    }
    return new Database();
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(URL, "sa", "");
  }

  /**
   * Called by H2 for {@code PAUSE(ms)}: sleeps, counting itself among the queries running. Like a
   * database whose disk every query shares, each query running beside it makes it a quarter slower,
   * so a storm of them slows all of them (up to eight times).
   */
  public static int pause(int millis) throws InterruptedException {
    int now = running.incrementAndGet();
    peak.accumulateAndGet(now, Math::max);
    try {
      Thread.sleep(millis + millis * Math.min(now - 1L, 28) / 4);
      return 0;
    } finally {
      running.decrementAndGet();
    }
  }

  /** The most slow queries that ran at once since the last call. */
  int takePeak() {
    return peak.getAndSet(running.get());
  }
}
