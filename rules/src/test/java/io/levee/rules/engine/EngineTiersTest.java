package io.levee.rules.engine;

import static io.levee.rules.engine.Fixture.blocked;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.Blocked;
import io.levee.rules.model.KeySpec;
import org.junit.jupiter.api.Test;

/**
 * Per-key tiers (SPEC §5.3) through the engine's servlet decisions: premium, free and internal
 * tenants of one resource, keyed by a claim, in enforce and in monitor mode, and across a reload.
 * The request object stands for the request; the key source reads it as the tenant.
 */
class EngineTiersTest {
  private static final KeySource TENANT = (request, spec) -> (String) request;

  private static final String API =
      "  - name: api\n    match: { servlet: { paths: [\"/api/**\"] } }\n"
          + "    rate-limit:\n      rate: 2/s\n      per: \"jwt:tenant\"\n"
          + "      overrides:\n"
          + "        - { keys: [\"premium-*\"], rate: 50/s, burst: 50 }\n"
          + "        - { keys: [internal], rate: unlimited }\n";

  private final Fixture f = new Fixture();

  private Object call(String tenant) {
    return f.engine.servlet("GET", "/api/orders", tenant, TENANT);
  }

  /** Sends {@code n} calls of {@code tenant} at one instant: how many were admitted. */
  private int burst(String tenant, int n) {
    int admitted = 0;
    for (int i = 0; i < n; i++) {
      Object decision = call(tenant);
      if (!(decision instanceof Blocked)) {
        f.ok(decision);
        admitted++;
      }
    }
    return admitted;
  }

  @Test
  void premiumFreeAndInternalTenantsEachGetTheirTier() {
    f.apply("resources:\n" + API);
    assertThat(burst("premium-acme", 60)).isEqualTo(50);
    assertThat(burst("free-globex", 20)).isEqualTo(2);
    assertThat(burst("free-initech", 20)).isEqualTo(2);
    assertThat(burst("internal", 10_000)).isEqualTo(10_000);
    assertThat(burst(KeySpec.NONE, 20)).isEqualTo(2);

    ResourceView api = f.view("api");
    assertThat(api.blocked(Reason.RATE_LIMIT)).isEqualTo(10 + 18 + 18 + 18);
    assertThat(api.passed()).isEqualTo(50 + 2 + 2 + 10_000 + 2);

    Blocked free = blocked(call("free-globex"));
    assertThat(free.status).isEqualTo(429);
    assertThat(free.retryAfterSeconds).isEqualTo(1);
    // each refills at its own rate: half a second gives a free tenant one call, premium 25
    f.clock.advanceMillis(500);
    assertThat(burst("free-globex", 10)).isEqualTo(1);
    assertThat(burst("premium-acme", 60)).isEqualTo(25);
  }

  @Test
  void monitorModeAdmitsEveryTenantAndCountsOnlyWhatTheirTierWouldBlock() {
    f.apply("settings: { mode: monitor }\nresources:\n" + API);
    assertThat(burst("premium-acme", 50)).isEqualTo(50);
    assertThat(burst("internal", 1_000)).isEqualTo(1_000);
    ResourceView api = f.view("api");
    assertThat(api.wouldBlock(Reason.RATE_LIMIT)).isZero();

    assertThat(burst("free-globex", 20)).isEqualTo(20);
    assertThat(api.wouldBlock(Reason.RATE_LIMIT)).isEqualTo(18);
    assertThat(api.blocked(Reason.RATE_LIMIT)).isZero();
    assertThat(f.sleeps).isEmpty();
  }

  @Test
  void aReloadThatChangesATierStartsFreshBucketsAndOneThatDoesNotKeepsThem() {
    f.apply("resources:\n" + API);
    assertThat(burst("free-globex", 5)).isEqualTo(2);
    f.apply("resources:\n" + API);
    assertThat(burst("free-globex", 5)).isZero();

    f.apply("resources:\n" + API.replace("rate: 50/s, burst: 50", "rate: 60/s, burst: 60"));
    assertThat(burst("free-globex", 5)).isEqualTo(2);
    assertThat(burst("premium-acme", 100)).isEqualTo(60);
  }

  @Test
  void aKeyOfTheSharedBucketIsDecidedAtTheResourcesRate() {
    f.apply("resources:\n" + API);
    // no key source: the bucket of requests without a key, never a tier
    int admitted = 0;
    for (int i = 0; i < 10; i++) {
      admitted += f.get("/api/x") instanceof Blocked ? 0 : 1;
    }
    assertThat(admitted).isEqualTo(2);
  }
}
