package io.levee.rules.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RuleError;
import io.levee.rules.load.RulesLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, hostile rules: 12 000 line-level mutations of valid files (fixed seeds) each either load
 * or come back rejected with located errors, never with another exception, and each within the 100
 * ms the issue requires.
 */
class HostileRulesTest {
  private static final int CASES_PER_SEED = 4_000;
  private static final long BOUND = TimeUnit.MILLISECONDS.toNanos(100);

  /** Every policy, per-key limits, system rule, on-block variants, every kind: the widest seed. */
  private static final String EVERYTHING =
"""
version: 1
settings:
  mode: enforce
  reload: 0
  max-keys: 10000
system:
  exclude: ["/health"]
  adaptive: { cpu-target: 80%, min-limit: 4, max-limit: 100 }
  on-block: { status: 503 }
resources:
  - name: tenants
    match:
      servlet:
        methods: [GET, POST]
        paths: ["/api/{tenant}/**"]
    rate-limit: { rate: 100/s, burst: 50, per: header:X-Tenant-ID, max-wait: 10ms, warm-up: 5s }
    concurrency: { max: 8, max-wait: 5ms }
    on-block: { status: 429, retry-after: auto, body: "slow down", content-type: text/plain }
  - name: partner
    mode: monitor
    match:
      http: { urls: ["*://*.example.com:*/v1/**"], methods: [GET] }
    timeouts: { connect: 250ms, read: 1s }
    circuit-breaker: { failure-rate: 0.5, slow-call: 1s, slow-call-rate: 90%, window: 10s,
                       minimum-calls: 5, open-for: 1s, open-for-max: 1m, half-open-calls: 2 }
    failure: { statuses: ["5xx", 429], exceptions: [java.io.IOException],
               ignore-exceptions: [java.io.InterruptedIOException] }
    on-block:
      fallback:
        status: 200
        body: '{"ok":false}'
        headers: { Content-Type: application/json }
        last-good: 5m
        max-body: 64KiB
        max-entries: 100
  - name: db
    match:
      jdbc: { urls: ["jdbc:h2:mem:*"], operations: [SELECT], tables: ["t_*"], sql: "(?i)select.*" }
    timeouts: { query: 2s }
    adaptive: { min-limit: 1, max-limit: 32, initial-limit: 8 }
    failure: { ignore-sql-states: ["23*", "40001"] }
    on-block: { sql-state: "57014" }
  - name: db-connect
    match:
      jdbc: { urls: ["jdbc:h2:mem:*"], operations: [CONNECT] }
    concurrency: { max: 4 }
  - name: pricing
    match:
      method: { class: [com.acme.pricing.PriceClient, "com.acme.**.*Port"], methods: [quote, "find*"],
                annotated: org.springframework.stereotype.Service }
    rate-limit: { rate: 20/s, burst: 5 }
    circuit-breaker: { failure-rate: 50%, slow-call: 2s }
    failure: { exceptions: [java.io.IOException], ignore-exceptions: [java.io.EOFException] }
    on-block: { throw: com.acme.pricing.PricingUnavailableException }
""";

  @Test
  void everyMutantLoadsOrIsRejectedWithLocatedErrorsQuickly() throws IOException {
    String[] seeds = {specExample(), demoRules(), EVERYTHING};
    long[] randomSeeds = {20240801L, 8L, 0x1EE7L};
    for (String seed : seeds) {
      LoadResult valid = RulesLoader.parse("seed.yaml", seed);
      assertThat(valid.errors()).as("a seed must be valid").isEmpty();
      // class loading and the first run of each error path are not what the bound is about
      Random warmUp = new Random(-1L);
      for (int i = 0; i < 300; i++) {
        RulesLoader.parse("warm-up.yaml", RulesMutator.mutate(seed, warmUp));
      }
    }

    int cases = 0;
    int rejected = 0;
    long slowest = 0;
    String slowestCase = "";
    for (int s = 0; s < seeds.length; s++) {
      Random random = new Random(randomSeeds[s]);
      for (int i = 0; i < CASES_PER_SEED; i++) {
        String mutant = RulesMutator.mutate(seeds[s], random);
        String label = "seed " + s + " case " + i;
        long nanos = timed(label, mutant);
        if (nanos > BOUND) {
          // a GC or a busy core can stall one run; a case slow by itself is slow every time
          nanos = Math.min(nanos, Math.min(timed(label, mutant), timed(label, mutant)));
        }
        if (nanos > slowest) {
          slowest = nanos;
          slowestCase = label;
        }
        cases++;
        if (!RulesLoader.parse("mutant.yaml", mutant).ok()) {
          rejected++;
        }
      }
    }
    System.out.printf(
        "hostile rules: %d cases, %d rejected, slowest %.2f ms (%s)%n",
        cases, rejected, slowest / 1e6, slowestCase);
    assertThat(cases).isGreaterThanOrEqualTo(10_000);
    // the mutations must mostly break files, and sometimes not, or they prove little
    assertThat(rejected).isBetween(cases / 2, cases - 1);
    assertThat(slowest).as("slowest case, in nanoseconds (" + slowestCase + ")").isLessThan(BOUND);
  }

  /** Parses once and checks the contract; returns how long the parse took. */
  private static long timed(String label, String mutant) {
    LoadResult result;
    long start = System.nanoTime();
    try {
      result = RulesLoader.parse("mutant.yaml", mutant);
    } catch (RuntimeException | Error e) {
      throw new AssertionError(label + " threw on:\n" + mutant, e);
    }
    long nanos = System.nanoTime() - start;
    if (result.ok()) {
      assertThat(result.rules()).as(label).isNotNull();
      return nanos;
    }
    assertThat(result.rules()).as(label).isNull();
    assertThat(result.errors()).as(label).isNotEmpty();
    for (RuleError e : result.errors()) {
      if (e.line() < 1 || e.column() < 1 || e.message() == null || e.message().isBlank()) {
        fail(label + " gave the unlocated error [" + e + "] for:\n" + mutant);
      }
    }
    return nanos;
  }

  private static String specExample() throws IOException {
    try {
      return Files.readString(
          Paths.get(HostileRulesTest.class.getResource("/valid/spec-example.yaml").toURI()));
    } catch (java.net.URISyntaxException e) {
      throw new IOException(e);
    }
  }

  /** The demo's file, read where it lives so the seed follows it; tests run in the module dir. */
  private static String demoRules() throws IOException {
    Path demo = Paths.get("..", "demo", "rules.yaml");
    return new String(Files.readAllBytes(demo), StandardCharsets.UTF_8);
  }
}
