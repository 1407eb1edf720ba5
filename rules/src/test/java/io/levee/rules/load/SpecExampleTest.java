package io.levee.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.AdaptiveSpec;
import io.levee.rules.model.CallKind;
import io.levee.rules.model.CircuitBreakerSpec;
import io.levee.rules.model.ClusterSettings;
import io.levee.rules.model.ConcurrencySpec;
import io.levee.rules.model.Defaults;
import io.levee.rules.model.FailureSpec;
import io.levee.rules.model.KeySpec;
import io.levee.rules.model.MethodMatch;
import io.levee.rules.model.Mode;
import io.levee.rules.model.OnBlock;
import io.levee.rules.model.Operation;
import io.levee.rules.model.RateLimitSpec;
import io.levee.rules.model.RateTier;
import io.levee.rules.model.RedisAddress;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import io.levee.rules.model.TimeoutsSpec;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The examples of SPEC §2, §5.2 and §5.3, verbatim, load with every value and default in place. */
class SpecExampleTest {
  private static final long MS = 1_000_000L;
  private static final long S = 1_000_000_000L;

  private static Path file;
  private static RuleSet rules;

  @BeforeAll
  static void load() throws Exception {
    file = Paths.get(SpecExampleTest.class.getResource("/valid/spec-example.yaml").toURI());
    LoadResult result = RulesLoader.load(file);
    assertThat(result.errors()).isEmpty();
    assertThat(result.ok()).isTrue();
    rules = result.rules();
  }

  @Test
  void readsSettingsAndNamesTheSource() {
    assertThat(rules.source).isEqualTo(file.toString());
    assertThat(rules.settings.mode).isEqualTo(Mode.ENFORCE);
    assertThat(rules.settings.reloadNanos).isEqualTo(2 * S);
    assertThat(rules.settings.maxKeys).isEqualTo(10_000);
  }

  @Test
  void readsTheSystemRuleWithAdaptiveDefaults() {
    assertThat(rules.system.exclude).containsExactly("/health", "/actuator/**");
    assertThat(rules.system.adaptive).isEqualTo(new AdaptiveSpec(2, 200, 20, 0.8));
    assertThat(rules.system.mode).isEqualTo(Mode.ENFORCE);
    assertThat(rules.system.onBlock.status).isEqualTo(503);
    assertThat(rules.system.onBlock.retryAfterSeconds).isEqualTo(OnBlock.RETRY_AFTER_AUTO);
  }

  @Test
  void keepsResourcesInFileOrder() {
    assertThat(rules.resources)
        .extracting(r -> r.name)
        .containsExactly("checkout", "payments", "orders-db");
  }

  @Test
  void readsTheServletResource() {
    ResourceRule checkout = rules.resources.get(0);
    assertThat(checkout.mode).isEqualTo(Mode.MONITOR);
    assertThat(checkout.match.kind).isEqualTo(CallKind.SERVLET);
    assertThat(checkout.match.methods).containsExactly("POST");
    assertThat(checkout.match.paths).containsExactly("/shop/checkout/**");
    assertThat(checkout.rateLimit)
        .isEqualTo(
            new RateLimitSpec(50, 100, 0, 0, new KeySpec(KeySpec.Source.HEADER, "X-Tenant-ID")));
    assertThat(checkout.concurrency).isEqualTo(new ConcurrencySpec(20, 0));
    assertThat(checkout.circuitBreaker).isNull();
    assertThat(checkout.adaptive).isNull();
    assertThat(checkout.failure).isEqualTo(FailureSpec.DEFAULT);
    assertThat(checkout.timeouts).isEqualTo(TimeoutsSpec.NONE);
    assertThat(checkout.onBlock.status).isEqualTo(429);
    assertThat(checkout.onBlock.retryAfterSeconds).isEqualTo(OnBlock.RETRY_AFTER_AUTO);
    assertThat(checkout.onBlock.body).isEqualTo("busy, retry later");
    assertThat(checkout.onBlock.fallback).isNull();
  }

  @Test
  void readsTheHttpResource() {
    ResourceRule payments = rules.resources.get(1);
    assertThat(payments.mode).isEqualTo(Mode.ENFORCE);
    assertThat(payments.match.kind).isEqualTo(CallKind.HTTP);
    assertThat(payments.match.methods).containsExactly("POST");
    assertThat(payments.match.urls).containsExactly("https://pay.example.com/v1/**");
    assertThat(payments.timeouts).isEqualTo(new TimeoutsSpec(1 * S, 3 * S, 0));
    assertThat(payments.circuitBreaker)
        .isEqualTo(new CircuitBreakerSpec(0.5, 800 * MS, 0.8, 10 * S, 20, 5 * S, 120 * S, 5));
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    assertThat(payments.onBlock.fallback)
        .isEqualTo(new OnBlock.Fallback(503, "{\"status\":\"degraded\"}", headers));
    assertThat(payments.onBlock.status).isNull();
    assertThat(payments.rateLimit).isNull();
  }

  @Test
  void readsTheJdbcResourceWithDefaultsFilledIn() {
    ResourceRule orders = rules.resources.get(2);
    assertThat(orders.match.kind).isEqualTo(CallKind.JDBC);
    assertThat(orders.match.urls).containsExactly("jdbc:postgresql://*/orders*");
    assertThat(orders.match.operations).isEqualTo(EnumSet.of(Operation.SELECT));
    assertThat(orders.match.tables).containsExactly("orders", "order_*");
    assertThat(orders.match.sql).isNull();
    assertThat(orders.adaptive)
        .isEqualTo(new AdaptiveSpec(2, 64, Defaults.ADAPTIVE_INITIAL_LIMIT, 0.8));
    assertThat(orders.failure.ignoreSqlStates).containsExactly("23*");
    assertThat(orders.failure.statuses).containsExactly("5xx");
    assertThat(orders.failure.exceptions).isEmpty();
    assertThat(orders.onBlock).isEqualTo(OnBlock.DEFAULT);
    assertThat(orders.onBlock.headers).isEqualTo(Collections.emptyMap());
  }

  @Test
  void readsTheMethodResourceOfSection52() throws Exception {
    Path method =
        Paths.get(SpecExampleTest.class.getResource("/valid/spec-method-example.yaml").toURI());
    LoadResult result = RulesLoader.load(method);
    assertThat(result.errors()).isEmpty();
    assertThat(result.rules().resources).hasSize(1);
    ResourceRule pricing = result.rules().resources.get(0);
    assertThat(pricing.name).isEqualTo("pricing");
    assertThat(pricing.mode).isEqualTo(Mode.ENFORCE);
    assertThat(pricing.match.kind).isEqualTo(CallKind.METHOD);
    assertThat(pricing.match.method)
        .isEqualTo(
            new MethodMatch(
                Arrays.asList("com.acme.pricing.PriceClient"),
                Arrays.asList("quote", "find*"),
                null));
    assertThat(pricing.concurrency).isEqualTo(new ConcurrencySpec(8, 0));
    assertThat(pricing.circuitBreaker)
        .isEqualTo(
            new CircuitBreakerSpec(
                0.5,
                0,
                Defaults.BREAKER_SLOW_CALL_RATE,
                Defaults.BREAKER_WINDOW_NANOS,
                Defaults.BREAKER_MINIMUM_CALLS,
                Defaults.BREAKER_OPEN_FOR_NANOS,
                Defaults.BREAKER_OPEN_FOR_MAX_NANOS,
                Defaults.BREAKER_HALF_OPEN_CALLS));
    assertThat(pricing.rateLimit).isNull();
    assertThat(pricing.adaptive).isNull();
    assertThat(pricing.timeouts).isEqualTo(TimeoutsSpec.NONE);
    assertThat(pricing.failure).isEqualTo(FailureSpec.DEFAULT);
    assertThat(pricing.onBlock.exception).isEqualTo("com.acme.pricing.PricingUnavailableException");
    assertThat(pricing.onBlock.exceptionLine).isEqualTo(9);
    assertThat(pricing.onBlock.exceptionColumn).isEqualTo(24);
    assertThat(pricing.onBlock.status).isNull();
    assertThat(pricing.onBlock.fallback).isNull();
    assertThat(pricing.onBlock.sqlState).isNull();
  }

  @Test
  void readsTheQuotasOfSection53() throws Exception {
    Path quota =
        Paths.get(SpecExampleTest.class.getResource("/valid/spec-quota-example.yaml").toURI());
    LoadResult result = RulesLoader.load(quota);
    assertThat(result.errors()).isEmpty();
    ClusterSettings cluster = result.rules().settings.cluster;
    assertThat(cluster.redis).isEqualTo(new RedisAddress(false, null, null, "127.0.0.1", 6379, 0));
    assertThat(cluster.name).isEqualTo("shop");
    assertThat(cluster.syncNanos).isEqualTo(100 * MS);
    assertThat(cluster.onFailure).isEqualTo(ClusterSettings.OnFailure.LOCAL);
    ResourceRule partner = result.rules().resources.get(0);
    assertThat(partner.rateLimit)
        .isEqualTo(
            new RateLimitSpec(100, 100, 0, 0, null, true, Collections.<RateTier>emptyList()));
    ResourceRule api = result.rules().resources.get(1);
    assertThat(api.rateLimit)
        .isEqualTo(
            new RateLimitSpec(
                20,
                20,
                0,
                0,
                new KeySpec(KeySpec.Source.JWT, "tenant"),
                true,
                Arrays.asList(
                    new RateTier(Arrays.asList("premium-*"), 200, 400),
                    new RateTier(
                        Arrays.asList("internal"), RateTier.UNLIMITED, RateTier.UNLIMITED))));
  }

  @Test
  void givesTheKindsBeforeMethodNoMethodMatchAndNoExceptionToThrow() {
    for (ResourceRule r : rules.resources) {
      assertThat(r.match.method).as(r.name).isNull();
      assertThat(r.onBlock.exception).as(r.name).isNull();
      assertThat(r.onBlock.exceptionLine).as(r.name).isZero();
    }
    assertThat(rules.system.onBlock.exception).isNull();
  }
}
