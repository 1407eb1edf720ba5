package io.levee.it.apps;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import com.zaxxer.hikari.metrics.IMetricsTracker;
import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import com.zaxxer.hikari.metrics.PoolStats;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code /pool?db=pg}: a HikariCP pool of {@link Databases} as the pool itself sees it. {@code
 * attempts} counts every physical connection it tried to open (HikariCP reports each to its metrics
 * tracker, failed or not, except the very first one it opens while starting); the rest is its
 * {@code HikariPoolMXBean}.
 */
public final class PoolCounts {
  private static final Map<String, AtomicLong> ATTEMPTS = new ConcurrentHashMap<>();

  /** Counts connection attempts per pool name. */
  static final MetricsTrackerFactory FACTORY =
      (String poolName, PoolStats stats) -> {
        AtomicLong attempts = ATTEMPTS.computeIfAbsent(poolName, n -> new AtomicLong());
        return new IMetricsTracker() {
          @Override
          public void recordConnectionCreatedMillis(long connectionCreatedMillis) {
            attempts.incrementAndGet();
          }
        };
      };

  private PoolCounts() {}

  public static String handle(Map<String, String> q) {
    Lines out = new Lines();
    HikariDataSource pool = Databases.pool(q.getOrDefault("db", "pg"));
    if (pool == null) {
      return out.put("outcome", "no pool").toString();
    }
    HikariPoolMXBean bean = pool.getHikariPoolMXBean();
    return out.put("outcome", "ok")
        .put("attempts", ATTEMPTS.getOrDefault(pool.getPoolName(), new AtomicLong()).get())
        .put("total", bean.getTotalConnections())
        .put("active", bean.getActiveConnections())
        .put("idle", bean.getIdleConnections())
        .put("waiting", bean.getThreadsAwaitingConnection())
        .put("max", pool.getMaximumPoolSize())
        .toString();
  }
}
