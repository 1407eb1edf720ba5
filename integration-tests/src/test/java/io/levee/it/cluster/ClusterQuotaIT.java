package io.levee.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Redis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Three JVMs with the packaged agent share one {@code rate: 200/s, scope: cluster} quota on their
 * calls to a real partner, settled through the real Redis of the test command: over 10 s with more
 * offered than the rate, the partner receives between 0.9 and 1.05 of the rate per second plus one
 * burst, whether the load is even, all on one instance, or moves from one to another halfway; and
 * an instance that asks for less than its fair part gets what it asks while the others hold the
 * rest.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterQuotaIT {
  static final int RATE = 200;
  static final int BURST = 20;
  static final int WINDOW_SECONDS = 10;

  private LocalHttpServer partner;
  private Fleet fleet;

  @BeforeAll
  void startFleet() {
    Redis.require();
    partner = LocalHttpServer.start();
    String name = "quota-" + Long.toHexString(System.nanoTime());
    fleet = Fleet.start("cluster-quota", 3, rules(Redis.url(), name), partner.url("/quota"));
  }

  @AfterAll
  void stopFleet() {
    if (fleet != null) {
      fleet.close();
    }
    if (partner != null) {
      partner.close();
    }
  }

  @BeforeEach
  void quiet() {
    Redis.require();
    fleet.rates(0, 0, 0);
    Fleet.sleep(1000);
  }

  static String rules(String redis, String name) {
    return "version: 1\n"
        + "settings:\n"
        + "  cluster: { redis: \""
        + redis
        + "\", name: "
        + name
        + ", sync: 100ms }\n"
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
  void evenLoadSharesTheRate() {
    fleet.rates(150, 150, 150);
    Fleet.sleep(3000);
    assertWithinBounds("even load, 3 × 150/s", received(WINDOW_SECONDS, null));
    assertThat(fleet.status(0)).contains("\"scope\":\"cluster\"", "\"instances\":3");
    assertThat(fleet.status(0)).contains("\"connected\":true");
  }

  @Test
  void allLoadOnOneInstance() {
    fleet.rates(450, 0, 0);
    Fleet.sleep(3000);
    assertWithinBounds("all load on one instance, 450/s", received(WINDOW_SECONDS, null));
  }

  @Test
  void loadMovingFromOneInstanceToAnother() {
    fleet.rates(450, 0, 0);
    Fleet.sleep(3000);
    long moved =
        received(
            WINDOW_SECONDS,
            () -> {
              fleet.rate(1, 450);
              fleet.rate(0, 0);
            });
    assertWithinBounds("load moved from instance 0 to 1 halfway", moved);
  }

  @Test
  void anInstanceAskingLessThanItsPartIsNotStarved() {
    fleet.rates(50, 300, 300);
    Fleet.sleep(3000);
    long before = fleet.count(0, "admitted");
    long blockedBefore = fleet.count(0, "blocked");
    long total = received(WINDOW_SECONDS, null);
    long small = fleet.count(0, "admitted") - before;
    long smallBlocked = fleet.count(0, "blocked") - blockedBefore;
    System.out.printf(
        "cluster quota, 50/s beside 2 × 300/s: the small instance got %d, blocked %d; all %d%n",
        small, smallBlocked, total);
    assertWithinBounds("50/s beside 2 × 300/s", total);
    assertThat(small)
        .as("admitted from the instance offering 50/s, a quarter of its fair part 66/s")
        .isGreaterThanOrEqualTo((long) (0.9 * 50 * WINDOW_SECONDS));
  }

  /**
   * What the partner received in {@code seconds}; {@code halfway} (if any) runs after half of it.
   */
  private long received(int seconds, Runnable halfway) {
    int from = partner.received();
    if (halfway != null) {
      Fleet.sleep(seconds * 500L);
      halfway.run();
      Fleet.sleep(seconds * 500L);
    } else {
      Fleet.sleep(seconds * 1000L);
    }
    return partner.received() - from;
  }

  private static void assertWithinBounds(String what, long received) {
    double perSecond = (double) received / WINDOW_SECONDS;
    System.out.printf(
        "cluster quota, %s: %.1f/s over %d s (%.3f of %d/s)%n",
        what, perSecond, WINDOW_SECONDS, perSecond / RATE, RATE);
    assertThat(received)
        .as("%s: calls the partner received in %d s at a shared %d/s", what, WINDOW_SECONDS, RATE)
        .isBetween(
            (long) (0.9 * RATE * WINDOW_SECONDS), (long) (1.05 * RATE * WINDOW_SECONDS) + BURST);
  }
}
