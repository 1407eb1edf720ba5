package io.levee.rules.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.levee.bootstrap.method.OpenMethods;
import io.levee.rules.model.KeySpec;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * An admitted call, decide and complete, through every policy and of every kind the engine decides
 * by value or by woven method, a known key of a per-key limit whatever its tier, and an inbound
 * request of each priority under the system limit: nothing on the heap (DESIGN).
 */
class EngineAllocationTest {
  private static final int CALLS = 50_000;
  private static final KeySource TENANT = (request, spec) -> (String) request;
  private static final String[] TENANTS = {"premium-1", "free-1", "internal", KeySpec.NONE};

  private final Fixture f =
      new Fixture()
          .apply(
              "system:\n  adaptive: { max-limit: 100, initial-limit: 100 }\n"
                  + "resources:\n"
                  + "  - name: shop\n    match: { servlet: { paths: [\"/shop/**\"] } }\n"
                  + "    priority: critical\n"
                  + "    circuit-breaker: { minimum-calls: 1000000 }\n"
                  + "    rate-limit: { rate: 1000000000/s }\n    concurrency: { max: 10 }\n"
                  + "    adaptive: { min-limit: 10, max-limit: 10, initial-limit: 10 }\n"
                  + "  - name: tenants\n    match: { servlet: { paths: [\"/tenants/**\"] } }\n"
                  + "    priority: sheddable\n"
                  + "    rate-limit: { rate: 1000000000/s, per: \"jwt:tenant\", overrides: ["
                  + "{ keys: [\"premium-*\"], rate: 2000000000/s }, { keys: [internal],"
                  + " rate: unlimited }] }\n"
                  + "  - name: pay\n    match: { http: { urls: [\"http://pay/**\"] } }\n"
                  + "    circuit-breaker: { minimum-calls: 1000000 }\n    concurrency: { max: 10 }\n"
                  + "    timeouts: { read: 1s }\n"
                  + "  - name: pricing\n    match: { method: { class: com.acme.PriceClient } }\n"
                  + "    circuit-breaker: { minimum-calls: 1000000 }\n    concurrency: { max: 10 }\n"
                  + "    adaptive: { min-limit: 10, max-limit: 10, initial-limit: 10 }\n");

  /** A woven method of pricing, with the nested call of the same resource it makes. */
  private final MethodSite quote = site();

  private final String path = new StringBuilder("/shop/cart").toString();
  private final String url = new StringBuilder("http://pay/v1").toString();
  private final String tenantsPath = new StringBuilder("/tenants/orders").toString();
  private final String otherPath = new StringBuilder("/other/page").toString();

  @Test
  void admittedCallsAllocateNothing() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    assumeThat(bean).isInstanceOf(com.sun.management.ThreadMXBean.class);
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
    calls(5_000);
    long before = threads.getCurrentThreadAllocatedBytes();
    int admitted = calls(CALLS);
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertThat(admitted).isEqualTo(5 * CALLS);
    // a few hundred bytes for the measurement itself; one object per call would be megabytes
    assertThat(allocated).isLessThan(10_000);
  }

  private MethodSite site() {
    io.levee.rules.match.MethodPlan plan = io.levee.rules.match.MethodPlan.of(f.engine.rules());
    return new MethodSite(
        new String[] {plan.name(0)}, new io.levee.rules.model.Match[] {plan.match(0)});
  }

  private int calls(int n) {
    int admitted = 0;
    for (int i = 0; i < n; i++) {
      f.clock.advanceNanos(20_000); // so adaptive windows close along the way
      long start = f.clock.nanoTime();
      Object shop = f.engine.servlet("GET", path, null, null);
      Object pay = f.engine.http("GET", url);
      Object tenant = f.engine.servlet("GET", tenantsPath, TENANTS[i & 3], TENANT);
      admitted += (shop instanceof EnginePermit ? 1 : 0) + (pay instanceof EnginePermit ? 1 : 0);
      admitted += tenant instanceof EnginePermit ? 1 : 0;
      Object other = f.engine.servlet("GET", otherPath, null, null);
      admitted += other instanceof EnginePermit ? 1 : 0;
      if (f.engine.keepsLastGood(pay)) {
        throw new AssertionError("pay keeps no last good answer");
      }
      Object quoted = f.engine.method(quote);
      admitted += quoted instanceof EnginePermit ? 1 : 0;
      // What the method hooks do around the call, and a nested call of the same resource.
      OpenMethods.open(((EnginePermit) quoted).resourceId);
      if (f.engine.method(quote) != null) {
        throw new AssertionError("a nested call of pricing is not decided again");
      }
      OpenMethods.close(((EnginePermit) quoted).resourceId);
      f.engine.methodDone(quoted, start, null);
      f.engine.complete(other, start, 200, null);
      f.engine.complete(tenant, start, 200, null);
      f.engine.complete(pay, start, 200, null);
      f.engine.complete(shop, start, 200, null);
    }
    return admitted;
  }
}
