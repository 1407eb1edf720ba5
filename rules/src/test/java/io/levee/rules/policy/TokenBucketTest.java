package io.levee.rules.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.levee.rules.model.RateLimitSpec;
import io.levee.rules.time.ManualClock;
import org.junit.jupiter.api.Test;

class TokenBucketTest {
  private final ManualClock clock = new ManualClock();

  private static long ms(long millis) {
    return millis * 1_000_000L;
  }

  private TokenBucket bucket(double rate, double burst, long warmUp, long maxWait) {
    return new TokenBucket(new RateLimitSpec(rate, burst, warmUp, maxWait, null), clock);
  }

  @Test
  void admitsTheBurstAtOnceThenRejects() {
    TokenBucket b = bucket(10, 5, 0, 0);
    for (int i = 0; i < 5; i++) {
      assertThat(b.tryAcquire()).isZero();
    }
    assertThat(b.tryAcquire()).isEqualTo(-ms(100));
  }

  @Test
  void decidesAtTheInstantItIsGivenNotAtTheClock() {
    TokenBucket b = bucket(10, 1, 0, 0);
    long now = clock.nanoTime();
    assertThat(b.tryAcquire(now)).isZero();
    assertThat(b.tryAcquire(now + ms(40))).isEqualTo(-ms(60));
    assertThat(b.tryAcquire(now + ms(100))).isZero();
    assertThat(b.tryAcquire()).isEqualTo(-ms(200));
  }

  @Test
  void aCallerDelayedAfterReadingTheClockIsNotRefusedTokensTheBucketHolds() {
    TokenBucket b = bucket(10, 5, 0, 0);
    long readBeforeTheDelay = clock.nanoTime();
    clock.advanceMillis(1_000);
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.available()).isEqualTo(4.0);
    assertThat(b.tryAcquire(readBeforeTheDelay)).isZero();
  }

  @Test
  void aRefusalStillStandsAtTheClocksInstant() {
    TokenBucket b = bucket(10, 1, 0, 0);
    long read = clock.nanoTime();
    assertThat(b.tryAcquire(read)).isZero();
    clock.advanceMillis(40);
    assertThat(b.tryAcquire(read)).isEqualTo(-ms(60));
  }

  @Test
  void refillsAtTheConfiguredRate() {
    TokenBucket b = bucket(10, 5, 0, 0);
    for (int i = 0; i < 5; i++) {
      b.tryAcquire();
    }
    clock.advanceMillis(100);
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isEqualTo(-ms(100));
    clock.advanceMillis(250);
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isEqualTo(-ms(50));
  }

  @Test
  void neverHoldsMoreThanTheBurstAfterALongIdle() {
    TokenBucket b = bucket(10, 5, 0, 0);
    clock.advanceMillis(3_600_000);
    assertThat(b.available()).isEqualTo(5.0);
    for (int i = 0; i < 5; i++) {
      assertThat(b.tryAcquire()).isZero();
    }
    assertThat(b.tryAcquire()).isNegative();
  }

  @Test
  void availableCountsFractionalRefill() {
    TokenBucket b = bucket(10, 5, 0, 0);
    b.tryAcquire();
    b.tryAcquire();
    assertThat(b.available()).isCloseTo(3.0, within(1e-9));
    clock.advanceMillis(50);
    assertThat(b.available()).isCloseTo(3.5, within(1e-9));
  }

  @Test
  void reservesATokenWhenTheWaitIsWithinMaxWait() {
    TokenBucket b = bucket(10, 1, 0, ms(250));
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isEqualTo(ms(100));
    assertThat(b.tryAcquire()).isEqualTo(ms(200));
    assertThat(b.tryAcquire()).isEqualTo(-ms(300));
  }

  @Test
  void rejectingConsumesNothing() {
    TokenBucket b = bucket(10, 1, 0, 0);
    b.tryAcquire();
    for (int i = 0; i < 10; i++) {
      assertThat(b.tryAcquire()).isEqualTo(-ms(100));
    }
    clock.advanceMillis(100);
    assertThat(b.tryAcquire()).isZero();
  }

  @Test
  void rejectionWaitIsAtLeastOneNanosecond() {
    TokenBucket b = bucket(10, 1, 0, 0);
    b.tryAcquire();
    clock.advanceNanos(ms(100) - 1);
    assertThat(b.tryAcquire()).isEqualTo(-1);
  }

  @Test
  void decideAndNextArePureStepsOfTheVirtualSchedule() {
    assertThat(TokenBucket.decide(1_000, 1_000, 0, 0)).isZero();
    assertThat(TokenBucket.decide(1_500, 1_000, 400, 0)).isEqualTo(-100);
    assertThat(TokenBucket.decide(1_500, 1_000, 400, 100)).isEqualTo(100);
    assertThat(TokenBucket.next(500, 1_000, 100)).isEqualTo(1_100);
    assertThat(TokenBucket.next(1_500, 1_000, 100)).isEqualTo(1_600);
  }

  @Test
  void warmUpStartsAtAThirdOfRateAndBurst() {
    TokenBucket b = bucket(30, 3, ms(3_000), 0);
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isEqualTo(-ms(100));
  }

  @Test
  void warmUpClimbsLinearlyToTheFullRate() {
    TokenBucket b = bucket(30, 3, ms(3_000), 0);
    b.tryAcquire();
    clock.advanceMillis(1_500);
    // Half-way: factor 2/3, so 20/s and a burst of 2.
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isEqualTo(-ms(50));
    clock.advanceMillis(1_500);
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isEqualTo(-33_333_333L);
  }

  @Test
  void aGapShorterThanTheWarmUpKeepsTheBucketWarm() {
    TokenBucket b = bucket(30, 3, ms(3_000), 0);
    b.tryAcquire();
    clock.advanceMillis(3_000);
    b.tryAcquire();
    clock.advanceMillis(2_000);
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isNegative();
  }

  @Test
  void anIdlePeriodAsLongAsTheWarmUpMakesItColdAgain() {
    TokenBucket b = bucket(30, 3, ms(3_000), 0);
    b.tryAcquire();
    clock.advanceMillis(3_000);
    b.tryAcquire();
    clock.advanceMillis(3_100);
    assertThat(b.available()).isCloseTo(1.0, within(1e-9));
    assertThat(b.tryAcquire()).isZero();
    assertThat(b.tryAcquire()).isEqualTo(-ms(100));
  }
}
