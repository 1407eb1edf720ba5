package io.levee.demo.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RulesLoader;
import io.levee.rules.match.ResourceMatcher;
import io.levee.rules.model.RuleSet;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The demo's rules protect the calls the demo application really makes, and nothing else. */
class DemoRulesTest {
  private static final RuleSet RULES = load();
  private static final ResourceMatcher MATCHER = new ResourceMatcher(RULES);

  @Test
  void ordersRequestsAreRateLimitedPerTenant() {
    assertThat(name(MATCHER.servlet("GET", "/api/orders"))).isEqualTo("orders-api");
    assertThat(RULES.resources.get(0).rateLimit.per.name).isEqualTo("X-Tenant-ID");
  }

  @Test
  void thePartnerCallIsBehindTheBreaker() {
    int i = MATCHER.http("GET", "http://127.0.0.1:41234/partner/price?sku=A-100");
    assertThat(name(i)).isEqualTo("pricing-partner");
    assertThat(RULES.resources.get(i).onBlock.fallback.status).isEqualTo(200);
  }

  @Test
  void onlyTheReportQueryIsConcurrencyLimited() {
    assertThat(name(MATCHER.jdbc(Database.URL, ReportServlet.SQL))).isEqualTo("sales-report");
    assertThat(MATCHER.jdbc(Database.URL, OrdersServlet.SQL)).isEqualTo(-1);
  }

  @Test
  void theHealthCheckIsNeverShed() {
    assertThat(MATCHER.systemExcluded("/health")).isTrue();
    assertThat(MATCHER.systemExcluded("/api/compute")).isFalse();
  }

  private static String name(int index) {
    return index < 0 ? "none" : RULES.resources.get(index).name;
  }

  private static RuleSet load() {
    LoadResult result = RulesLoader.load(Path.of("rules.yaml"));
    assertThat(result.errors()).isEmpty();
    return result.rules();
  }
}
