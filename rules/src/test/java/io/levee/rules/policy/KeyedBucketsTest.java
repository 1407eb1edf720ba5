package io.levee.rules.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.KeySpec;
import io.levee.rules.model.RateLimitSpec;
import io.levee.rules.model.RateTier;
import io.levee.rules.time.ManualClock;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class KeyedBucketsTest {
  private final ManualClock clock = new ManualClock();
  private final RateLimitSpec spec = new RateLimitSpec(10, 1, 0, 0, null);

  @Test
  void eachKeyHasItsOwnBucket() {
    KeyedBuckets keyed = new KeyedBuckets(spec, 10, clock);
    assertThat(keyed.bucket("a").tryAcquire(clock.nanoTime())).isZero();
    assertThat(keyed.bucket("a").tryAcquire(clock.nanoTime())).isNegative();
    assertThat(keyed.bucket("b").tryAcquire(clock.nanoTime())).isZero();
    assertThat(keyed.bucket("a")).isSameAs(keyed.bucket("a"));
    assertThat(keyed.size()).isEqualTo(2);
  }

  @Test
  void stampsTheLastUseWithTheInstantItIsGiven() {
    KeyedBuckets keyed = new KeyedBuckets(spec, 2, clock);
    long now = clock.nanoTime();
    RateBucket a = keyed.bucket("a", now + 20_000_000L);
    keyed.bucket("b", now + 10_000_000L);
    keyed.bucket("c", now + 30_000_000L);
    assertThat(keyed.bucket("a", now + 30_000_000L)).isSameAs(a);
    assertThat(keyed.evictions()).isEqualTo(1);
  }

  @Test
  void aNewKeyIsFullAtTheInstantItIsGivenEvenIfTheClockMovedOn() {
    KeyedBuckets keyed = new KeyedBuckets(spec, 10, clock);
    long now = clock.nanoTime();
    clock.advanceNanos(1_000); // the caller read the clock, then the bucket is created
    assertThat(keyed.bucket("new", now).tryAcquire(now)).isZero();
  }

  @Test
  void nullKeySharesOneBucketOutsideTheCap() {
    KeyedBuckets keyed = new KeyedBuckets(spec, 1, clock);
    assertThat(keyed.bucket(null)).isSameAs(keyed.bucket(null));
    assertThat(keyed.size()).isZero();
  }

  @Test
  void staysWithinMaxKeysAndCountsEvictions() {
    KeyedBuckets keyed = new KeyedBuckets(spec, 3, clock);
    for (int i = 0; i < 10; i++) {
      clock.advanceMillis(10);
      keyed.bucket("k" + i);
    }
    assertThat(keyed.size()).isEqualTo(3);
    assertThat(keyed.evictions()).isEqualTo(7);
  }

  @Test
  void leastRecentlyUsedKeyGoesFirst() {
    KeyedBuckets keyed = new KeyedBuckets(spec, 3, clock);
    RateBucket a = keyed.bucket("a");
    clock.advanceMillis(10);
    RateBucket b = keyed.bucket("b");
    clock.advanceMillis(10);
    RateBucket c = keyed.bucket("c");
    clock.advanceMillis(10);
    keyed.bucket("a");
    clock.advanceMillis(10);
    keyed.bucket("d");
    assertThat(keyed.evictions()).isEqualTo(1);
    assertThat(keyed.bucket("a")).isSameAs(a);
    assertThat(keyed.bucket("c")).isSameAs(c);
    assertThat(keyed.bucket("b")).isNotSameAs(b);
  }

  @Test
  void anEvictedKeyComesBackWithAFullBucket() {
    KeyedBuckets keyed = new KeyedBuckets(spec, 1, clock);
    keyed.bucket("a").tryAcquire(clock.nanoTime());
    clock.advanceMillis(10);
    keyed.bucket("b");
    assertThat(keyed.bucket("a").tryAcquire(clock.nanoTime())).isZero();
  }

  @Test
  void evictsAnEighthAtOnceWhenFull() {
    KeyedBuckets keyed = new KeyedBuckets(spec, 16, clock);
    for (int i = 0; i < 16; i++) {
      clock.advanceMillis(10);
      keyed.bucket("k" + i);
    }
    keyed.bucket("new");
    assertThat(keyed.evictions()).isEqualTo(2);
    assertThat(keyed.size()).isEqualTo(15);
  }

  /**
   * 10/s with a burst of 1 for most keys; premium keys a burst of 5, premium-gold (also matched by
   * the first tier, which wins) a burst of 50; internal unlimited.
   */
  private static RateLimitSpec tiered() {
    return new RateLimitSpec(
        10,
        1,
        0,
        0,
        new KeySpec(KeySpec.Source.JWT, "tenant"),
        false,
        Arrays.asList(
            new RateTier(Arrays.asList("premium-*"), 10, 5),
            new RateTier(Arrays.asList("premium-gold", "gold"), 100, 50),
            new RateTier(Arrays.asList("internal"), RateTier.UNLIMITED, RateTier.UNLIMITED)));
  }

  /** How many calls the key's bucket admits at once, up to {@code max}. */
  private int admittedAtOnce(KeyedBuckets keyed, String key, int max) {
    int admitted = 0;
    while (admitted < max && keyed.bucket(key).tryAcquire(clock.nanoTime()) == 0) {
      admitted++;
    }
    return admitted;
  }

  @Test
  void aKeyGetsTheFirstTierWhoseKeysMatchIt() {
    KeyedBuckets keyed = new KeyedBuckets(tiered(), 100, clock);
    assertThat(admittedAtOnce(keyed, "premium-7", 1000)).isEqualTo(5);
    assertThat(admittedAtOnce(keyed, "premium-gold", 1000)).isEqualTo(5);
    assertThat(admittedAtOnce(keyed, "gold", 1000)).isEqualTo(50);
    assertThat(admittedAtOnce(keyed, "acme", 1000)).isEqualTo(1);
    // matched whole and case-sensitively
    assertThat(admittedAtOnce(keyed, "Premium-7", 1000)).isEqualTo(1);
    assertThat(admittedAtOnce(keyed, "x-premium-7", 1000)).isEqualTo(1);
    // refilled at the tier's rate: 10/s gives a premium key one token in 100 ms
    clock.advanceMillis(100);
    assertThat(admittedAtOnce(keyed, "premium-7", 1000)).isEqualTo(1);
    assertThat(admittedAtOnce(keyed, "gold", 1000)).isEqualTo(10);
  }

  @Test
  void theKeyOfRequestsWithoutOneIsAKeyLikeAnyOther() {
    RateLimitSpec spec =
        new RateLimitSpec(
            10,
            1,
            0,
            0,
            new KeySpec(KeySpec.Source.JWT, "tenant"),
            false,
            Arrays.asList(new RateTier(Arrays.asList(KeySpec.NONE), 10, 3)));
    KeyedBuckets keyed = new KeyedBuckets(spec, 100, clock);
    assertThat(admittedAtOnce(keyed, KeySpec.NONE, 1000)).isEqualTo(3);
    assertThat(admittedAtOnce(keyed, null, 1000)).isEqualTo(1);
  }

  @Test
  void anUnlimitedKeyIsAlwaysAdmittedAndStillTakesItsPlaceUnderMaxKeys() {
    KeyedBuckets keyed = new KeyedBuckets(tiered(), 2, clock);
    assertThat(keyed.bucket("internal")).isSameAs(RateBucket.UNLIMITED);
    assertThat(admittedAtOnce(keyed, "internal", 100_000)).isEqualTo(100_000);
    assertThat(keyed.size()).isEqualTo(1);
    clock.advanceMillis(10);
    keyed.bucket("acme");
    clock.advanceMillis(10);
    keyed.bucket("globex");
    assertThat(keyed.size()).isEqualTo(2);
    assertThat(keyed.evictions()).isEqualTo(1);
    // the least recently used key went, unlimited or not; it comes back unlimited
    assertThat(keyed.bucket("internal")).isSameAs(RateBucket.UNLIMITED);
    assertThat(keyed.evictions()).isEqualTo(2);
  }

  @Test
  void anEvictedKeyComesBackInItsTierWithAFullBucket() {
    KeyedBuckets keyed = new KeyedBuckets(tiered(), 1, clock);
    assertThat(admittedAtOnce(keyed, "premium-7", 1000)).isEqualTo(5);
    clock.advanceMillis(10);
    keyed.bucket("acme");
    assertThat(keyed.evictions()).isEqualTo(1);
    clock.advanceMillis(10);
    assertThat(admittedAtOnce(keyed, "premium-7", 1000)).isEqualTo(5);
  }

  @Test
  void makesEachTiersBucketsWithTheFactoryAndTheTiersRate() {
    java.util.List<Double> rates = new java.util.ArrayList<>();
    KeyedBuckets keyed =
        new KeyedBuckets(
            tiered(),
            100,
            clock,
            (s, now) -> {
              rates.add(s.permitsPerSecond);
              return new TokenBucket(s, clock, now);
            });
    keyed.bucket("premium-7");
    keyed.bucket("internal");
    keyed.bucket("gold");
    keyed.bucket("acme");
    // the shared bucket of requests without a key first, then one per limited key
    assertThat(rates).containsExactly(10.0, 10.0, 100.0, 10.0);
  }
}
