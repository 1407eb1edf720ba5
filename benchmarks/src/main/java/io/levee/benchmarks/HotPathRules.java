package io.levee.benchmarks;

/** The limits every contender is given: so generous that every call is admitted. */
final class HotPathRules {
  /** Permits per second: far above what two threads can ask for. */
  static final int RATE_PER_SECOND = 1_000_000_000;

  static final int MAX_CONCURRENT = 1_000;

  private HotPathRules() {}
}
