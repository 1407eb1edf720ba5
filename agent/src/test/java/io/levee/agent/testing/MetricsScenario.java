package io.levee.agent.testing;

import static io.levee.agent.testing.EngineFixture.assertBlocked;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scripted scenario of three resources, one per kind, that the metrics and endpoint tests share.
 */
public final class MetricsScenario {
  private MetricsScenario() {}

  public static final String CHECKOUT =
      "  - name: checkout\n"
          + "    match: { servlet: { paths: [\"/checkout/**\"] } }\n"
          + "    rate-limit: { rate: 3/s, burst: 3 }\n";
  public static final String PAYMENTS =
      "  - name: payments\n"
          + "    match: { http: { urls: [\"http://pay.example/**\"] } }\n"
          + "    circuit-breaker: { minimum-calls: 4, failure-rate: 50%, open-for: 5s }\n";
  public static final String SEARCH =
      "  - name: search\n"
          + "    mode: monitor\n"
          + "    match: { jdbc: { urls: [\"jdbc:h2:**\"] } }\n"
          + "    concurrency: { max: 1 }\n";

  /**
   * checkout: 3 admitted (2 succeed, 1 fails, 10 ms in all), 2 over the rate limit; payments: 4
   * failures open the breaker, 3 calls meet it open; search (monitor): 3 in flight past a limit of
   * 1, so 2 would have been blocked.
   */
  public static void run(EngineFixture f) {
    Object[] admitted = new Object[3];
    for (int i = 0; i < 3; i++) {
      admitted[i] = f.get("/checkout/cart");
    }
    assertBlocked(f.get("/checkout/cart"), "rate-limit");
    assertBlocked(f.get("/checkout/pay"), "rate-limit");
    f.complete(admitted[0], 200, 2);
    f.complete(admitted[1], 204, 3);
    f.complete(admitted[2], 500, 5);
    for (int i = 0; i < 4; i++) {
      f.complete(f.engine.http("POST", "http://pay.example/v1/charge"), 503, 1);
    }
    for (int i = 0; i < 3; i++) {
      assertBlocked(f.engine.http("POST", "http://pay.example/v1/charge"), "circuit-open");
    }
    for (int i = 0; i < 3; i++) {
      assertThat(f.engine.jdbc("jdbc:h2:mem:shop", "select * from items")).isNotNull();
    }
  }
}
