package io.levee.agent.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.testing.EngineFixture;
import io.levee.bootstrap.Blocked;
import org.junit.jupiter.api.Test;

class BlockSummaryTest {
  private static final String RULES =
      "resources:\n"
          + "  - name: checkout\n"
          + "    match: { servlet: { paths: [\"/checkout/**\"] } }\n"
          + "    rate-limit: { rate: 1/s, burst: 1 }\n"
          + "  - name: search\n"
          + "    mode: monitor\n"
          + "    match: { servlet: { paths: [\"/search/**\"] } }\n"
          + "    concurrency: { max: 1 }\n";

  private final EngineFixture f = new EngineFixture().apply(RULES);

  @Test
  void summarisesTheBlocksSinceTheLastSummaryPerResourceAndReason() {
    f.get("/checkout/a");
    f.get("/checkout/a");
    BlockSummary summary = new BlockSummary(f.engine, f.log, 10);
    for (int i = 0; i < 3; i++) {
      f.get("/checkout/a");
    }
    f.get("/search/q");
    f.get("/search/q");

    summary.run();
    f.get("/checkout/a");
    summary.run();

    assertThat(f.log.lines)
        .containsExactly(
            "INFO blocked in the last 10s: checkout rate-limit=3",
            "INFO would have blocked in the last 10s (monitor): search concurrency=1",
            "INFO blocked in the last 10s: checkout rate-limit=1");
  }

  @Test
  void summarisesRequestsAnsweredWithBackpressureOnTheServletResource() {
    EngineFixture g =
        new EngineFixture()
            .apply(
                "resources:\n"
                    + "  - name: shop\n"
                    + "    match: { servlet: { paths: [\"/shop/**\"] } }\n"
                    + "    backpressure: true\n"
                    + "  - name: db\n"
                    + "    match: { jdbc: { urls: [\"jdbc:h2:*\"] } }\n"
                    + "    rate-limit: { rate: 1/m, burst: 1 }\n");
    BlockSummary summary = new BlockSummary(g.engine, g.log, 10);
    Object request = g.get("/shop/cart");
    g.engine.jdbc("jdbc:h2:mem:x", "select 1");
    Blocked refused = (Blocked) g.engine.jdbc("jdbc:h2:mem:x", "select 1");
    g.engine.backpressure(request, refused);

    summary.run();

    assertThat(g.log.lines)
        .containsExactly("INFO blocked in the last 10s: shop backpressure=1, db rate-limit=1");
  }

  @Test
  void saysNothingForAQuietPeriod() {
    BlockSummary summary = new BlockSummary(f.engine, f.log, 10);
    f.get("/checkout/a");
    summary.run();
    assertThat(f.log.lines).isEmpty();
  }

  @Test
  void startsAResourceChangedByAReloadFromZero() {
    BlockSummary summary = new BlockSummary(f.engine, f.log, 10);
    f.get("/checkout/a");
    f.get("/checkout/a");
    f.get("/checkout/a");
    f.apply(RULES.replace("burst: 1", "burst: 2"));
    f.get("/checkout/a");
    f.get("/checkout/a");
    f.get("/checkout/a");

    summary.run();

    assertThat(f.log.lines).containsExactly("INFO blocked in the last 10s: checkout rate-limit=1");
  }
}
