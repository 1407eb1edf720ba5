package io.levee.rules.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.RateLimitSpec;
import io.levee.rules.time.ManualClock;
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
}
