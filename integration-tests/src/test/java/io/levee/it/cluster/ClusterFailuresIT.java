package io.levee.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Redis;
import io.levee.testkit.RedisServer;
import io.levee.testkit.StallingProxy;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a fleet sharing a quota does when Redis goes away, hangs, or an instance dies: a Redis of
 * the test's own ({@code sync: 200ms}) that it stops and restarts on the same port, or reaches
 * through a proxy that stalls; an instance killed with SIGKILL. No call fails or waits because of
 * Redis; {@code on-failure: local} starts within three syncs, logged once, and shows as {@code
 * "connected":false} and {@code levee_cluster_connected 0}; the shared budget is back within 2 s of
 * Redis; a dead instance's share goes back to the others.
 */
class ClusterFailuresIT {
  static final int RATE = 200;
  static final int BURST = 20;
  static final long SYNC_MILLIS = 200;

  private LocalHttpServer partner;
  private RedisServer redis;
  private StallingProxy proxy;
  private Fleet fleet;

  @BeforeEach
  void start() throws Exception {
    redis = Redis.ownServer().start();
    partner = LocalHttpServer.start();
  }

  @AfterEach
  void stop() throws Exception {
    if (fleet != null) {
      fleet.close();
    }
    if (proxy != null) {
      proxy.close();
    }
    partner.close();
    redis.close();
  }

  static String rules(String redisUrl) {
    return "version: 1\n"
        + "settings:\n"
        + "  cluster: { redis: \""
        + redisUrl
        + "\", name: failures, sync: "
        + SYNC_MILLIS
        + "ms, on-failure: local }\n"
        + "resources:\n"
        + "  - name: partner-quota\n"
        + "    match: { http: { urls: [\"http://127.0.0.1:*/quota\"] } }\n"
        + "    rate-limit: { rate: "
        + RATE
        + "/s, burst: "
        + BURST
        + ", scope: cluster }\n";
  }

  @Test
  void redisStoppedAndStartedAgain() throws Exception {
    fleet = Fleet.start("cluster-redis-restart", 2, rules(redis.url()), partner.url("/quota"));
    fleet.rates(150, 150);
    assertThat(fleet.awaitStatus(0, "\"connected\":true", 10_000)).isNotNegative();
    Fleet.sleep(2000);

    redis.stop();
    long down = fleet.awaitStatus(0, "\"connected\":false", 5000);
    System.out.printf("cluster: Redis stopped, on-failure after %d ms%n", down);
    assertThat(down).as("ms until on-failure, at most 3 × sync").isBetween(0L, 3 * SYNC_MILLIS);
    assertThat(fleet.metrics(0)).containsPattern("(?m)^levee_cluster_connected 0$");
    int before = partner.received();
    Fleet.sleep(3000);
    long duringOutage = partner.received() - before;
    System.out.printf("cluster: %.1f/s while Redis was down%n", duringOutage / 3.0);
    assertThat(duringOutage)
        .as("each instance keeps the rate over the 2 instances it counted")
        .isBetween((long) (0.9 * RATE * 3), (long) (1.05 * RATE * 3) + BURST);

    redis.restart();
    long back = fleet.awaitStatus(0, "\"connected\":true", 5000);
    System.out.printf("cluster: Redis restarted, shared again after %d ms%n", back);
    assertThat(back).as("ms until the budget is shared again").isBetween(0L, 2000L);
    assertThat(fleet.awaitStatus(1, "\"connected\":true", 2000)).isNotNegative();
    before = partner.received();
    Fleet.sleep(5000);
    long after = partner.received() - before;
    assertThat(after).isBetween((long) (0.9 * RATE * 5), (long) (1.05 * RATE * 5) + BURST);

    for (int i = 0; i < 2; i++) {
      assertThat(fleet.count(i, "errors")).as("calls that failed because of Redis").isZero();
      assertThat(fleet.logLines(i, "cannot be reached")).as("logged once").hasSize(1);
      assertThat(fleet.logLines(i, "Redis answers again")).hasSize(1);
    }
  }

  @Test
  void redisThatHangsIsTakenForDownAndNoCallWaits() throws Exception {
    proxy = StallingProxy.to("127.0.0.1", redis.port());
    String url = "redis://127.0.0.1:" + proxy.port() + "/0";
    fleet = Fleet.start("cluster-redis-stall", 2, rules(url), partner.url("/quota"));
    fleet.rates(150, 150);
    assertThat(fleet.awaitStatus(0, "\"connected\":true", 10_000)).isNotNegative();
    Fleet.sleep(2000);

    // A slow Redis that still answers within half a sync is Redis. The proxy delays each chunk
    // each way, so a settle's round trip takes two delays or more; 15 ms keeps it well inside the
    // read timeout (half a sync, 100 ms) on a loaded machine.
    proxy.delay(Duration.ofMillis(15));
    Fleet.sleep(1500);
    assertThat(fleet.status(0)).contains("\"connected\":true");
    assertThat(fleet.logLines(0, "cannot be reached")).isEmpty();
    proxy.delay(Duration.ZERO);

    proxy.stall(true);
    long down = fleet.awaitStatus(0, "\"connected\":false", 5000);
    System.out.printf("cluster: Redis stalled, on-failure after %d ms%n", down);
    assertThat(down).as("ms until on-failure, at most 3 × sync").isBetween(0L, 3 * SYNC_MILLIS);
    Fleet.sleep(3000);
    proxy.stall(false);
    long back = fleet.awaitStatus(0, "\"connected\":true", 5000);
    System.out.printf("cluster: Redis answers again, shared after %d ms%n", back);
    assertThat(back).isBetween(0L, 2000L);

    for (int i = 0; i < 2; i++) {
      assertThat(fleet.count(i, "errors")).isZero();
      long admittedMax = fleet.count(i, "admittedMaxMicros") / 1000;
      long blockedMax = fleet.count(i, "blockedMaxMicros") / 1000;
      System.out.printf(
          "cluster: instance %d, longest admitted call %d ms, longest blocked %d ms%n",
          i, admittedMax, blockedMax);
      // A call that waited for the stalled Redis would have taken the whole stall (3 s).
      assertThat(admittedMax).as("longest admitted call, ms").isLessThan(1000);
      assertThat(blockedMax).as("longest blocked call, ms").isLessThan(1000);
    }
  }

  @Test
  void aKilledInstanceGivesItsShareBack() {
    fleet = Fleet.start("cluster-kill", 3, rules(redis.url()), partner.url("/quota"));
    fleet.rates(100, 100, 100);
    assertThat(fleet.awaitStatus(0, "\"instances\":3", 10_000)).isNotNegative();
    Fleet.sleep(2000);

    fleet.kill(2);
    long gone = fleet.awaitStatus(0, "\"instances\":2", 5000);
    System.out.printf("cluster: instance killed, counted out after %d ms%n", gone);
    // Liveness is 3 × sync; the next settling after that counts it out.
    assertThat(gone).as("ms until the others count 2 instances").isBetween(0L, 5 * SYNC_MILLIS);
    Fleet.sleep(1000);
    int before = partner.received();
    Fleet.sleep(5000);
    long after = partner.received() - before;
    System.out.printf("cluster: %.1f/s from the 2 left, offering 100/s each%n", after / 5.0);
    assertThat(after)
        .as("the two left offer 2 × 100/s and share the whole rate")
        .isBetween((long) (0.9 * RATE * 5), (long) (1.05 * RATE * 5) + BURST);
  }
}
