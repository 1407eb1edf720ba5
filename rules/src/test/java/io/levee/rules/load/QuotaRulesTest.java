package io.levee.rules.load;

import static io.levee.rules.testing.TestRules.HTTP;
import static io.levee.rules.testing.TestRules.SERVLET;
import static io.levee.rules.testing.TestRules.errors;
import static io.levee.rules.testing.TestRules.file;
import static io.levee.rules.testing.TestRules.list;
import static io.levee.rules.testing.TestRules.load;
import static io.levee.rules.testing.TestRules.only;
import static io.levee.rules.testing.TestRules.resource;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.KeySpec;
import io.levee.rules.model.RateLimitSpec;
import io.levee.rules.model.RateTier;
import org.junit.jupiter.api.Test;

/**
 * The quota keys of {@code rate-limit} (SPEC §5.3): {@code overrides} (per-key tiers), {@code per:
 * jwt:CLAIM} and {@code scope}; what loads, and each error they can make.
 */
class QuotaRulesTest {
  private static final String CLUSTER =
      "settings: { cluster: { redis: redis://127.0.0.1:6379/0 } }\n";

  private static String limit(String fields) {
    return resource(SERVLET, "rate-limit: { " + fields + " }");
  }

  private static RateLimitSpec rateLimit(String fields) {
    return only(limit(fields)).rateLimit;
  }

  private static String tiers(String entries) {
    return limit("rate: 20/s, per: \"jwt:tenant\", overrides: [" + entries + "]");
  }

  @Test
  void readsTiersInFileOrder() {
    RateLimitSpec r =
        rateLimit(
            "rate: 20/s, per: \"jwt:tenant\", overrides: ["
                + "{ keys: [\"premium-*\", gold], rate: 200/s, burst: 400 },"
                + " { keys: internal, rate: unlimited },"
                + " { keys: [\"*\"], rate: 30/m } ]");
    assertThat(r.permitsPerSecond).isEqualTo(20);
    assertThat(r.burst).isEqualTo(20);
    assertThat(r.overrides).hasSize(3);
    assertThat(r.overrides.get(0)).isEqualTo(new RateTier(list("premium-*", "gold"), 200, 400));
    assertThat(r.overrides.get(1).keys).containsExactly("internal");
    assertThat(r.overrides.get(1).unlimited()).isTrue();
    assertThat(r.overrides.get(2).keys).containsExactly("*");
    assertThat(r.overrides.get(2).permitsPerSecond).isEqualTo(0.5);
  }

  @Test
  void defaultsATiersBurstToOneSecondOfItsRateButAtLeastOne() {
    assertThat(rateLimit("rate: 5/s, per: ip, overrides: [{ keys: a, rate: 50/s }]").overrides)
        .containsExactly(new RateTier(list("a"), 50, 50));
    assertThat(rateLimit("rate: 5/s, per: ip, overrides: [{ keys: a, rate: 30/m }]").overrides)
        .containsExactly(new RateTier(list("a"), 0.5, 1));
    assertThat(rateLimit("rate: 5/s, per: ip, overrides: [{ keys: a, rate: 2.5/s }]").overrides)
        .containsExactly(new RateTier(list("a"), 2.5, 2.5));
  }

  @Test
  void aTierTakesItsBurstNotTheResourcesBurst() {
    RateLimitSpec r =
        rateLimit("rate: 5/s, burst: 100, per: ip, overrides: [{ keys: a, rate: 10/s }]");
    assertThat(r.overrides.get(0).burst).isEqualTo(10);
    assertThat(r.burst).isEqualTo(100);
  }

  @Test
  void readsTiersForEveryKeySource() {
    for (String per :
        new String[] {"ip", "\"header:X-Tenant\"", "\"param:tenant\"", "\"jwt:sub\""}) {
      assertThat(rateLimit("rate: 5/s, per: " + per + ", overrides: [{ keys: a, rate: 9/s }]"))
          .extracting(r -> r.overrides.size())
          .isEqualTo(1);
    }
  }

  @Test
  void aChangedTierIsAnotherRule() {
    String premium = "{ keys: [\"premium-*\"], rate: 200/s }";
    assertThat(only(tiers(premium))).isEqualTo(only(tiers(premium)));
    assertThat(only(tiers(premium)))
        .isNotEqualTo(only(tiers("{ keys: [\"premium-*\"], rate: 300/s }")));
    assertThat(only(tiers(premium)))
        .isNotEqualTo(only(tiers("{ keys: [\"gold-*\"], rate: 200/s }")));
  }

  @Test
  void rejectsABurstForAnUnlimitedTier() {
    assertThat(errors(tiers("{ keys: [internal], rate: unlimited, burst: 10 }")))
        .containsExactly(
            "resources[0].rate-limit.overrides[0].burst: an unlimited key has no bucket, so no"
                + " burst; leave `burst` out");
  }

  @Test
  void rejectsUnlimitedAsTheResourcesOwnRate() {
    assertThat(errors(limit("rate: unlimited")))
        .containsExactly(
            "resources[0].rate-limit.rate: expected a rate like 50/s, 100/m or 1000/h, got"
                + " 'unlimited'");
  }

  @Test
  void rejectsOverridesWithoutPer() {
    assertThat(errors(limit("rate: 5/s, overrides: [{ keys: [a], rate: 10/s }]")))
        .containsExactly(
            "resources[0].rate-limit.overrides: `overrides` gives some keys another rate, so it"
                + " needs `per`, which says what the key is (ip, header:NAME, param:NAME or"
                + " jwt:CLAIM)");
  }

  @Test
  void anInvalidPerIsOneErrorAndItsTiersAreStillChecked() {
    assertThat(errors(limit("rate: 5/s, per: \"jwt:\", overrides: [{ keys: [a], rate: lots }]")))
        .containsExactly(
            "resources[0].rate-limit.per: expected ip, header:NAME, param:NAME or jwt:CLAIM, got"
                + " 'jwt:'",
            "resources[0].rate-limit.overrides[0].rate: expected a rate like 200/s, or unlimited,"
                + " got 'lots'");
  }

  @Test
  void rejectsAnEmptyListAnEmptyEntryAndAnEntryThatIsNoMapping() {
    assertThat(errors(limit("rate: 5/s, per: ip, overrides: []")))
        .containsExactly(
            "resources[0].rate-limit.overrides: the list is empty; give it entries like { keys:"
                + " [\"premium-*\"], rate: 200/s }, or leave `overrides` out");
    assertThat(errors(limit("rate: 5/s, per: ip, overrides: [null]")))
        .containsExactly(
            "resources[0].rate-limit.overrides[0]: expected a mapping like { keys:"
                + " [\"premium-*\"], rate: 200/s }, got nothing");
    assertThat(errors(limit("rate: 5/s, per: ip, overrides: [premium]")))
        .containsExactly(
            "resources[0].rate-limit.overrides[0]: expected a mapping like { keys:"
                + " [\"premium-*\"], rate: 200/s }, got 'premium'");
    assertThat(errors(limit("rate: 5/s, per: ip, overrides: { keys: [a], rate: 1/s }")))
        .containsExactly(
            "resources[0].rate-limit.overrides: expected a list like [{ keys: [\"premium-*\"],"
                + " rate: 200/s }], got a mapping");
  }

  @Test
  void suggestsTheClosestKeyForAnUnknownOneInATier() {
    assertThat(errors(tiers("{ keys: [a], rate: 10/s, brust: 3 }")))
        .containsExactly(
            "resources[0].rate-limit.overrides[0].brust: unknown key `brust`; did you mean"
                + " `burst`?");
    assertThat(errors(tiers("{ key: [a], rate: 10/s }")))
        .containsExactly(
            "resources[0].rate-limit.overrides[0].keys: `keys` is required: the keys it applies"
                + " to",
            "resources[0].rate-limit.overrides[0].key: unknown key `key`; did you mean `keys`?");
  }

  @Test
  void requiresKeysAndARateInEachTier() {
    assertThat(errors(tiers("{ rate: 10/s }")))
        .containsExactly(
            "resources[0].rate-limit.overrides[0].keys: `keys` is required: the keys it applies"
                + " to");
    assertThat(errors(tiers("{ keys: [a] }")))
        .containsExactly(
            "resources[0].rate-limit.overrides[0].rate: `rate` is required: how many calls each"
                + " of these keys may make, or unlimited");
    assertThat(errors(tiers("{ keys: [], rate: 10/s }")))
        .containsExactly(
            "resources[0].rate-limit.overrides[0].keys: the list is empty; `keys` needs a key or"
                + " a pattern like premium-*");
  }

  @Test
  void boundsAKeyPatternToTheLengthOfAKey() {
    assertThat(only(tiers("{ keys: [\"" + "k".repeat(256) + "\"], rate: 10/s }"))).isNotNull();
    assertThat(errors(tiers("{ keys: [\"" + "k".repeat(257) + "\"], rate: 10/s }")))
        .containsExactly(
            "resources[0].rate-limit.overrides[0].keys[0]: a key pattern has 1 to 256 characters");
    assertThat(errors(tiers("{ keys: [\"\"], rate: 10/s }")))
        .containsExactly(
            "resources[0].rate-limit.overrides[0].keys[0]: a key pattern has 1 to 256 characters");
  }

  @Test
  void rejectsATierRateThatIsNoRate() {
    assertThat(errors(tiers("{ keys: [a], rate: lots }")))
        .containsExactly(
            "resources[0].rate-limit.overrides[0].rate: expected a rate like 200/s, or unlimited,"
                + " got 'lots'");
    assertThat(errors(tiers("{ keys: [a], rate: 0/s }")))
        .containsExactly("resources[0].rate-limit.overrides[0].rate: must be more than 0, got 0/s");
    assertThat(errors(tiers("{ keys: [a], rate: 5/s, burst: 0.5 }")))
        .containsExactly("resources[0].rate-limit.overrides[0].burst: must be at least 1, got 0.5");
  }

  @Test
  void readsPerJwtWithTheClaimsNameAsWritten() {
    assertThat(rateLimit("rate: 5/s, per: \"jwt:sub\"").per)
        .isEqualTo(new KeySpec(KeySpec.Source.JWT, "sub"));
    assertThat(rateLimit("rate: 5/s, per: jwt:tenant_id").per.name).isEqualTo("tenant_id");
    // a namespaced claim, as identity providers write custom ones
    assertThat(rateLimit("rate: 5/s, per: \"jwt:https://example.com/tenant\"").per.name)
        .isEqualTo("https://example.com/tenant");
    assertThat(rateLimit("rate: 5/s, per: \"jwt:" + "c".repeat(64) + "\"").per.name).hasSize(64);
  }

  @Test
  void rejectsAJwtClaimNameItCannotName() {
    for (String claim : new String[] {"", "a b", "ten\\u00e4nt", "c".repeat(65), "a\\\"b"}) {
      assertThat(errors(limit("rate: 5/s, per: \"jwt:" + claim + "\"")))
          .singleElement()
          .asString()
          .startsWith(
              "resources[0].rate-limit.per: expected ip, header:NAME, param:NAME or jwt:CLAIM");
    }
  }

  @Test
  void rejectsPerJwtOutsideServlet() {
    assertThat(errors(resource(HTTP, "rate-limit: { rate: 5/s, per: \"jwt:sub\" }")))
        .containsExactly(
            "resources[0].rate-limit.per: `per` gives each client of an inbound request its own"
                + " bucket, so it applies only to servlet resources; this resource matches http"
                + " calls");
  }

  @Test
  void readsScopeLocalByDefault() {
    assertThat(rateLimit("rate: 5/s").cluster).isFalse();
    assertThat(rateLimit("rate: 5/s, scope: local").cluster).isFalse();
    assertThat(load(file(CLUSTER + "resources:\n" + limitEntry("scope: cluster"))).resources)
        .singleElement()
        .extracting(r -> r.rateLimit.cluster)
        .isEqualTo(true);
  }

  @Test
  void rejectsAClusterScopeWithoutClusterSettingsAndSaysWhatToAdd() {
    assertThat(errors(limit("rate: 5/s, scope: cluster")))
        .containsExactly(
            "resources[0].rate-limit.scope: `scope: cluster` shares the rate through Redis: add"
                + " `settings: { cluster: { redis: redis://HOST:6379/0 } }`, or leave `scope` out"
                + " for a limit per JVM");
  }

  @Test
  void rejectsAnUnknownScope() {
    assertThat(errors(limit("rate: 5/s, scope: global")))
        .containsExactly("resources[0].rate-limit.scope: expected local or cluster, got 'global'");
  }

  @Test
  void rejectsWarmUpWithAClusterScope() {
    assertThat(errors(file(CLUSTER + "resources:\n" + limitEntry("scope: cluster, warm-up: 10s"))))
        .containsExactly(
            "resources[0].rate-limit.warm-up: `warm-up` is not supported with `scope: cluster`"
                + " yet; leave one of them out");
    assertThat(rateLimit("rate: 5/s, scope: local, warm-up: 10s").warmUpNanos).isPositive();
  }

  @Test
  void readsTiersWithAClusterScope() {
    RateLimitSpec r =
        load(file(
                CLUSTER
                    + "resources:\n"
                    + limitEntry(
                        "per: \"jwt:tenant\", scope: cluster,"
                            + " overrides: [{ keys: [internal], rate: unlimited }]")))
            .resources
            .get(0)
            .rateLimit;
    assertThat(r.cluster).isTrue();
    assertThat(r.overrides.get(0).unlimited()).isTrue();
  }

  private static String limitEntry(String fields) {
    return "  - name: r\n    match: { "
        + SERVLET
        + " }\n    rate-limit: { rate: 5/s, "
        + fields
        + " }\n";
  }
}
