package io.levee.benchmarks;

/** The limits every contender is given: so generous that every call is admitted. */
final class HotPathRules {
  /** Permits per second: far above what two threads can ask for. */
  static final int RATE_PER_SECOND = 1_000_000_000;

  static final int MAX_CONCURRENT = 1_000;

  /** Levee's rules: the first resource is case (b), the second case (c). */
  static final String LEVEE_RULES =
      "version: 1\n"
          + "resources:\n"
          + "  - name: rate-limit\n"
          + "    match:\n"
          + "      http: { urls: [\"http://bench.example/rate/**\"] }\n"
          + "    rate-limit: { rate: "
          + RATE_PER_SECOND
          + "/s }\n"
          + "  - name: combined\n"
          + "    match:\n"
          + "      http: { urls: [\"http://bench.example/combined/**\"] }\n"
          + "    circuit-breaker: { failure-rate: 50%, window: 10s, minimum-calls: 20, open-for: 5s }\n"
          + "    rate-limit: { rate: "
          + RATE_PER_SECOND
          + "/s }\n"
          + "    concurrency: { max: "
          + MAX_CONCURRENT
          + " }\n";

  static final String NO_MATCH_URL = "http://other.example/orders/42";
  static final String RATE_LIMIT_URL = "http://bench.example/rate/orders/42";
  static final String COMBINED_URL = "http://bench.example/combined/orders/42";

  private HotPathRules() {}
}
