package io.levee.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Redis;
import io.levee.it.support.RulesFile;
import io.levee.testkit.RedisServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A per-key limit shared by a fleet ({@code per: header:X-Tenant}, {@code scope: cluster}) on two
 * Tomcat JVMs with real requests: one tenant's rate holds across both instances together, and
 * however many tenants come, Redis holds two keys per tenant in use (at most {@code max-keys} per
 * instance) and none a few seconds after they stop.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterKeysIT {
  static final int RATE = 20;
  static final int BURST = 4;
  static final int MAX_KEYS = 20;

  private RedisServer redis;
  private final List<ForkedApp> apps = new ArrayList<>();

  @BeforeAll
  void start() throws Exception {
    redis = Redis.ownServer().start();
    String rules =
        "version: 1\n"
            + "settings:\n"
            + "  max-keys: "
            + MAX_KEYS
            + "\n"
            + "  cluster: { redis: \""
            + redis.url()
            + "\", name: keys }\n"
            + "resources:\n"
            + "  - name: tenants\n"
            + "    match: { servlet: { paths: [\"/tenants/**\"] } }\n"
            + "    rate-limit: { rate: "
            + RATE
            + "/s, burst: "
            + BURST
            + ", per: header:X-Tenant, scope: cluster }\n";
    Path file = RulesFile.write("cluster-keys", rules);
    List<CompletableFuture<ForkedApp>> starting = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      ForkedApp.Builder app = ForkedApp.of(TomcatApp.class).rules(file).name("cluster-keys-" + i);
      starting.add(CompletableFuture.supplyAsync(app::start));
    }
    for (CompletableFuture<ForkedApp> f : starting) {
      apps.add(f.join());
    }
  }

  @AfterAll
  void stop() {
    apps.forEach(ForkedApp::close);
    if (redis != null) {
      redis.close();
    }
  }

  @Test
  void aTenantsRateHoldsAcrossBothInstances() throws Exception {
    // Each instance meets the tenant, settles it and learns there are two.
    for (ForkedApp app : apps) {
      new AppClient(app).get("/tenants/x", "X-Tenant", "acme");
    }
    ForkedApp.sleep(1000);
    int seconds = 8;
    List<CompletableFuture<AppClient.Paced>> runs = new ArrayList<>();
    for (ForkedApp app : apps) {
      AppClient client = new AppClient(app);
      runs.add(
          CompletableFuture.supplyAsync(
              () ->
                  client.paced("/tenants/x", 30, Duration.ofSeconds(seconds), "X-Tenant", "acme")));
    }
    long admitted = 0;
    long refused = 0;
    for (CompletableFuture<AppClient.Paced> run : runs) {
      admitted += run.join().count(200);
      refused += run.join().count(429);
    }
    System.out.printf(
        "cluster keys: one tenant at 2 × 30/s for %d s: %d admitted (%.1f/s), %d refused%n",
        seconds, admitted, admitted / (double) seconds, refused);
    assertThat(admitted)
        .as("the tenant's %d/s shared by both instances over %d s", RATE, seconds)
        .isBetween((long) (0.9 * RATE * seconds), (long) (1.05 * RATE * seconds) + BURST);
    assertThat(admitted + refused).isEqualTo(2L * 30 * seconds);
  }

  @Test
  void redisHoldsOnlyTheKeysInUse() throws Exception {
    int tenants = 200;
    for (int round = 0; round < 2; round++) {
      for (int t = 0; t < tenants; t++) {
        ForkedApp app = apps.get(t % 2);
        new AppClient(app).get("/tenants/x", "X-Tenant", "tenant-" + t);
      }
    }
    int held = redis.keys("levee:{keys:tenants:tenant-*").size();
    System.out.printf("cluster keys: %d tenants seen, %d Redis keys held%n", tenants, held);
    assertThat(held)
        .as("two keys per tenant in use, at most max-keys tenants per instance")
        .isBetween(1, 2 * MAX_KEYS * apps.size());
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (!redis.keys("levee:{keys:tenants:tenant-*").isEmpty() && System.nanoTime() < deadline) {
      ForkedApp.sleep(100);
    }
    assertThat(redis.keys("levee:{keys:tenants:tenant-*"))
        .as("the keys of tenants gone quiet expire")
        .isEmpty();
  }
}
