package io.levee.agent.cluster;

import io.levee.agent.log.EventLog;
import io.levee.rules.engine.ClusterVisitor;
import io.levee.rules.engine.Engine;
import io.levee.rules.model.ClusterSettings;
import io.levee.rules.policy.ClusterBucket;
import io.levee.rules.time.Clock;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The thread that settles this instance's cluster-scoped buckets with Redis every {@code sync}
 * (with a tenth of jitter, so that instances started together do not settle in step): it measures
 * each bucket's demand, sends them all in one round trip and sets each bucket's share from the
 * answer. The calls' threads never wait for it; they decide with the shares it last set.
 *
 * <p>When a settling fails and Redis has not answered for one and a half syncs (a refused or broken
 * connection, or a timeout of half a sync: a stalled Redis counts as down), {@code on-failure}
 * applies: within about two syncs of the last answer, as settlings start at a fixed rate whatever
 * the last one waited. {@code local} gives each bucket the rate over the instances it last counted
 * (the whole rate if it never settled), {@code open} admits every call. It is logged once when it
 * starts and once when Redis answers again, at which point the shares are the cluster's again.
 *
 * <p>Which buckets: every resource's one bucket; of per-key limits, the keys used within the
 * liveness time ({@code 3 × sync}), so Redis holds at most the keys the instances hold, and each
 * expires {@code 6 × sync} (at least a second) after it was last settled.
 */
final class Settler implements Runnable {
  /** How fast a demand that rises is believed, and one that falls forgotten. */
  private static final long DEMAND_RISE_NANOS = TimeUnit.MILLISECONDS.toNanos(150);

  private static final long DEMAND_FALL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  final ClusterSettings settings;
  private final Engine engine;
  private final EventLog log;
  private final String instance;
  private final long syncNanos;
  private final long livenessMillis;
  private final long expiryMillis;
  private final int timeoutMillis;
  private final Thread thread;

  /**
   * Held while stopping and while applying what a settling learnt: a thread that was stopped while
   * it waited on Redis (a socket read ignores interrupts) finds out before it touches a bucket or
   * the connection state, which by then belong to the rules that stopped it.
   */
  private final Object applying = new Object();

  private volatile boolean stopped;

  // The thread's own.
  /**
   * The per-key limits this instance is in at Redis, least recently settled first, at most {@code
   * max-keys} for each per-key resource: a key pushed out is taken out of Redis at the next
   * settling, so Redis holds at most {@code max-keys} keys per resource and instance however fast
   * keys come and go.
   */
  private final LinkedHashMap<String, Boolean> keysAtRedis =
      new LinkedHashMap<String, Boolean>(16, 0.75f, true);

  private final List<String> forget = new ArrayList<String>();
  private RedisLink link;
  private long lastSettled;
  private boolean everSettled;
  private boolean down;

  Settler(Engine engine, ClusterSettings settings, EventLog log) {
    this.engine = engine;
    this.settings = settings;
    this.log = log;
    this.instance = instanceId();
    this.syncNanos = settings.syncNanos;
    long syncMillis = TimeUnit.NANOSECONDS.toMillis(syncNanos);
    this.livenessMillis = 3 * syncMillis;
    this.expiryMillis = Math.max(1000, 6 * syncMillis);
    this.timeoutMillis = (int) Math.max(10, syncMillis / 2);
    this.thread = new Thread(this, "levee-cluster");
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Stops the thread and closes the connection; returns once the thread has ended (or 1 s). */
  void stop() {
    synchronized (applying) {
      stopped = true;
    }
    thread.interrupt();
    try {
      thread.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void run() {
    lastSettled = System.nanoTime();
    try {
      // At a fixed rate: a settling that waited for a stalled Redis does not delay the next one.
      long next = System.nanoTime();
      boolean failedBefore = false;
      while (!stopped) {
        try {
          settleOnce();
        } catch (Throwable t) {
          // settleOnce applies on-failure on any error; this is what that could not catch.
          if (!failedBefore) {
            failedBefore = true;
            log.warn("cluster " + settings.name + ": settling failed: " + t);
          }
        }
        long jitter = (long) (syncNanos * (ThreadLocalRandom.current().nextDouble() * 0.2 - 0.1));
        next += syncNanos + jitter;
        long wait = next - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        } else {
          next = System.nanoTime();
        }
      }
    } catch (InterruptedException e) {
      // Stopped.
    } finally {
      if (link != null) {
        link.close();
      }
    }
  }

  /**
   * One settling: measure, send, apply; or, when Redis cannot be had or anything else fails, {@code
   * on-failure}.
   */
  void settleOnce() {
    if (stopped) {
      return;
    }
    final List<ClusterBucket> buckets = new ArrayList<ClusterBucket>();
    try {
      settle(buckets);
    } catch (Throwable t) {
      if (link != null) {
        link.close();
        link = null;
      }
      synchronized (applying) {
        if (!stopped) {
          failed(t, buckets);
        }
      }
    }
  }

  private void settle(final List<ClusterBucket> buckets) {
    final List<RedisLink.Ask> asks = new ArrayList<RedisLink.Ask>();
    final long measuredAt = Clock.SYSTEM.nanoTime();
    final long recent = TimeUnit.MILLISECONDS.toNanos(livenessMillis);
    final Set<String> keyedResources = new HashSet<String>();
    engine.forEachClusterBucket(
        new ClusterVisitor() {
          @Override
          public void visit(String resource, String key, ClusterBucket bucket, long lastUsed) {
            double demand = bucket.demand(measuredAt, DEMAND_RISE_NANOS, DEMAND_FALL_NANOS);
            if (key != null && measuredAt - lastUsed > recent) {
              return;
            }
            String prefix = keyPrefix(resource, key);
            if (key != null) {
              keysAtRedis.put(prefix, Boolean.TRUE);
              keyedResources.add(resource);
            }
            buckets.add(bucket);
            asks.add(new RedisLink.Ask(prefix, demand, bucket.clusterRate()));
          }
        });
    int cap = Math.max(1, engine.rules().settings.maxKeys) * Math.max(1, keyedResources.size());
    for (Iterator<String> it = keysAtRedis.keySet().iterator();
        it.hasNext() && keysAtRedis.size() > cap; ) {
      forget.add(it.next());
      it.remove();
    }
    if (forget.size() > cap) {
      // Redis unreachable for long while keys came and went: their entries expire there anyway.
      forget.clear();
    }
    if (asks.isEmpty() && forget.isEmpty()) {
      return;
    }
    if (link == null) {
      link = RedisLink.open(settings.redis, timeoutMillis);
    }
    List<RedisLink.Share> shares =
        link.settle(instance, asks, forget, livenessMillis, expiryMillis);
    forget.clear();
    synchronized (applying) {
      if (stopped) {
        return;
      }
      for (int i = 0; i < shares.size(); i++) {
        buckets.get(i).share(shares.get(i).rate);
        buckets.get(i).instances(shares.get(i).instances);
      }
      if (!shares.isEmpty()) {
        settled(shares.get(0).instances);
      }
    }
  }

  /** A settling that failed: once Redis has been silent for long enough, {@code on-failure}. */
  private void failed(Throwable e, List<ClusterBucket> buckets) {
    if (!down && (!everSettled || System.nanoTime() - lastSettled >= syncNanos * 3 / 2)) {
      down = true;
      engine.clusterConnected(Engine.CLUSTER_DOWN);
      log.warn(
          "cluster "
              + settings.name
              + ": Redis at "
              + settings.redis
              + " cannot be reached ("
              + reason(e)
              + "); on-failure "
              + (settings.onFailure == ClusterSettings.OnFailure.OPEN
                  ? "open: cluster-scoped limits admit every call"
                  : "local: each instance keeps the rate over the instances it last counted")
              + " until it answers again");
    }
    if (down) {
      for (ClusterBucket b : buckets) {
        if (settings.onFailure == ClusterSettings.OnFailure.OPEN) {
          b.open();
        } else {
          b.share(b.clusterRate() / Math.max(1, b.instances()));
        }
      }
    }
  }

  private void settled(int instances) {
    lastSettled = System.nanoTime();
    if (down || !everSettled) {
      log.info(
          "cluster "
              + settings.name
              + ": "
              + (down ? "Redis answers again" : "settling")
              + " at "
              + settings.redis
              + " every "
              + TimeUnit.NANOSECONDS.toMillis(syncNanos)
              + "ms, "
              + instances
              + (instances == 1 ? " instance" : " instances")
              + " seen");
    }
    everSettled = true;
    down = false;
    engine.clusterConnected(Engine.CLUSTER_UP);
  }

  private String keyPrefix(String resource, String key) {
    return "levee:{" + settings.name + ":" + resource + (key == null ? "" : ":" + key) + "}";
  }

  private static String reason(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage();
    return root.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  /** This JVM among the cluster's: its process and host, and a random part for a reused pid. */
  private static String instanceId() {
    String name = ManagementFactory.getRuntimeMXBean().getName();
    return name + "/" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);
  }
}
