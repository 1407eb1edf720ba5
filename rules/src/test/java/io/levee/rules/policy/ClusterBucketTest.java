package io.levee.rules.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.levee.rules.model.RateLimitSpec;
import io.levee.rules.model.RateTier;
import io.levee.rules.time.ManualClock;
import java.util.Collections;
import org.junit.jupiter.api.Test;

class ClusterBucketTest {
  private final ManualClock clock = new ManualClock();

  private ClusterBucket bucket(double rate, double burst) {
    RateLimitSpec spec =
        new RateLimitSpec(rate, burst, 0, 0, null, true, Collections.<RateTier>emptyList());
    return new ClusterBucket(spec, clock, clock.nanoTime());
  }

  /** Calls admitted when {@code perSecond} are offered, evenly, for {@code seconds}. */
  private int admitted(ClusterBucket b, int perSecond, int seconds) {
    int admitted = 0;
    long step = 1_000_000_000L / perSecond;
    for (int i = 0; i < perSecond * seconds; i++) {
      clock.advanceNanos(step);
      if (b.tryAcquire(clock.nanoTime()) >= 0) {
        admitted++;
      }
    }
    return admitted;
  }

  @Test
  void startsEmptyAtTheWholeRate() {
    ClusterBucket b = bucket(100, 50);
    assertThat(b.tryAcquire(clock.nanoTime())).isZero();
    assertThat(b.tryAcquire(clock.nanoTime()))
        .as("no burst before the first settling: a fleet starting together would admit one each")
        .isNegative();
    assertThat(b.share()).isEqualTo(100);
    assertThat(admitted(b, 1000, 2)).isBetween(199, 201);
  }

  @Test
  void admitsItsShareAndSplitsTheBurstLikeTheRate() {
    ClusterBucket b = bucket(100, 50);
    b.share(25);
    assertThat(b.share()).isEqualTo(25);
    clock.advanceMillis(10_000);
    int burst = 0;
    while (b.tryAcquire(clock.nanoTime()) >= 0) {
      burst++;
    }
    assertThat(burst).as("a quarter of the rate holds a quarter of the burst").isEqualTo(12);
    assertThat(admitted(b, 1000, 4)).isBetween(99, 101);
  }

  @Test
  void aShareIsNeverAboveTheRateNorZero() {
    ClusterBucket b = bucket(100, 10);
    b.share(1e9);
    assertThat(b.share()).isEqualTo(100);
    b.share(0);
    assertThat(b.share()).isPositive();
    assertThat(admitted(b, 100, 5)).isLessThanOrEqualTo(1);
  }

  @Test
  void aSlowRateIsSharedAsItIsNotRaisedToAFloor() {
    // 60/h over twenty instances: 3/h each, so the fleet admits 60 an hour, not more
    ClusterBucket b = bucket(60.0 / 3600, 1);
    b.share(60.0 / 3600 / 20);
    assertThat(b.share()).isEqualTo(60.0 / 3600 / 20);
    assertThat(admitted(b, 1, 3600)).isBetween(3, 4);
    // 1/h whole: a share is never above the rate, however small the rate
    ClusterBucket slow = bucket(1.0 / 3600, 1);
    slow.share(0);
    assertThat(slow.share()).isPositive().isLessThanOrEqualTo(1.0 / 3600);
    slow.share(Double.NaN);
    assertThat(slow.share()).as("a share that is no number changes nothing").isPositive();
  }

  @Test
  void aLargerShareIsFeltAtOnceByABucketThatWasStarved() {
    ClusterBucket b = bucket(100, 10);
    b.share(0.5);
    clock.advanceMillis(5000);
    assertThat(b.tryAcquire(clock.nanoTime())).isZero();
    assertThat(b.tryAcquire(clock.nanoTime()))
        .as("the next call is due in two seconds at half a call a second")
        .isLessThan(-1_000_000_000L);
    b.share(100);
    clock.advanceMillis(20);
    assertThat(b.tryAcquire(clock.nanoTime()))
        .as("owed one call, paid back in 10 ms at the new share")
        .isZero();
  }

  @Test
  void openAdmitsEveryCallUntilTheNextShare() {
    ClusterBucket b = bucket(10, 1);
    b.open();
    assertThat(b.share()).isInfinite();
    for (int i = 0; i < 1000; i++) {
      assertThat(b.tryAcquire(clock.nanoTime())).isZero();
    }
    b.share(10);
    assertThat(admitted(b, 100, 2)).isBetween(19, 22);
  }

  @Test
  void demandCountsEveryCallAskedForRejectedOnesToo() {
    ClusterBucket b = bucket(10, 1);
    b.demand(clock.nanoTime(), 150_000_000L, 200_000_000L);
    admitted(b, 200, 1);
    double first = b.demand(clock.nanoTime(), 150_000_000L, 200_000_000L);
    assertThat(first).as("200 asked in 1 s, 190 of them refused").isCloseTo(200, within(1.0));
  }

  @Test
  void demandRisesAndFallsOverTheGivenTimes() {
    ClusterBucket b = bucket(1000, 1000);
    long rise = 150_000_000L;
    long fall = 200_000_000L;
    b.demand(clock.nanoTime(), rise, fall);
    admitted(b, 100, 1);
    assertThat(b.demand(clock.nanoTime(), rise, fall)).isCloseTo(100, within(1.0));
    clock.advanceMillis(100);
    double fell = b.demand(clock.nanoTime(), rise, fall);
    assertThat(fell)
        .as("a quiet 100 ms: 1 - e^(-1/2) of the way to 0")
        .isCloseTo(100 * Math.exp(-0.5), within(0.5));
    for (int i = 0; i < 40; i++) {
      b.tryAcquire(clock.nanoTime());
    }
    clock.advanceMillis(100);
    double rose = b.demand(clock.nanoTime(), rise, fall);
    assertThat(rose)
        .as("400/s for 100 ms: 1 - e^(-2/3) of the way up")
        .isCloseTo(fell + (400 - fell) * (1 - Math.exp(-100.0 / 150)), within(0.5));
  }

  @Test
  void instancesAreWhatTheClusterLastSaid() {
    ClusterBucket b = bucket(10, 1);
    assertThat(b.instances()).isZero();
    b.instances(3);
    assertThat(b.instances()).isEqualTo(3);
    assertThat(b.clusterRate()).isEqualTo(10);
  }
}
