package io.levee.demo.driver;

import io.levee.demo.partner.Partner;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's script: five scenarios of about 75 seconds in all. Rates are requests per second per
 * row; {@code compute} is sized from the measured cost of one request so that "normal" uses about a
 * tenth of the machine and "CPU overload" asks for twice what it can do.
 */
final class Scenarios {
  static final String ACME = "orders acme";
  static final String OTHERS = "orders others";
  static final String QUOTE = "quote";
  static final String REPORT = "report";
  static final String COMPUTE = "compute";

  private Scenarios() {}

  /** The rows of the table, each with the resource of demo/rules.yaml that protects it. */
  static List<Row> rows(int computeRounds) {
    return List.of(
        new Row(ACME, "orders-api", "/api/orders", "acme"),
        new Row(OTHERS, "orders-api", "/api/orders", "globex", "initech"),
        new Row(QUOTE, "pricing-partner", "/api/quote?sku=A-100"),
        new Row(REPORT, "sales-report", "/api/report"),
        new Row(COMPUTE, RulesOverview.SYSTEM, "/api/compute?rounds=" + computeRounds));
  }

  static List<Scenario> plan(Partner partner, double computeCapacity, double scale) {
    double normalCompute = Math.max(1, Math.round(computeCapacity / 10));
    double overCompute = Math.round(computeCapacity * 2);
    return List.of(
        new Scenario(
            Scenario.Id.NORMAL,
            "normal traffic",
            "three tenants browse orders, quotes call the partner, a few reports and computations",
            12 * scale,
            rates(8, 16, 10, 2, normalCompute),
            List.of()),
        new Scenario(
            Scenario.Id.BURST,
            "burst from one tenant",
            "tenant acme sends 120 orders/s; its limit is per tenant, so only acme should get 429",
            12 * scale,
            rates(120, 16, 10, 2, normalCompute),
            List.of()),
        new Scenario(
            Scenario.Id.PARTNER,
            "partner failing",
            String.format("the pricing partner answers 500 for %.0f s, then recovers", 10 * scale),
            22 * scale,
            rates(8, 16, 20, 2, normalCompute),
            List.of(
                new Scenario.Step(
                    0, "partner now answers 500", () -> partner.mode(Partner.Mode.FAILING)),
                new Scenario.Step(
                    10 * scale,
                    "partner healthy again",
                    () -> partner.mode(Partner.Mode.HEALTHY)))),
        new Scenario(
            Scenario.Id.STORM,
            "slow-query storm",
            "40 sales reports/s, each a 300 ms query that slows the others down",
            12 * scale,
            rates(8, 16, 10, 40, normalCompute),
            List.of()),
        new Scenario(
            Scenario.Id.CPU,
            "CPU overload",
            String.format("%.0f computations/s, about twice what the machine can do", overCompute),
            18 * scale,
            rates(8, 16, 10, 2, overCompute),
            List.of()));
  }

  private static Map<String, Double> rates(
      double acme, double others, double quote, double report, double compute) {
    Map<String, Double> rates = new LinkedHashMap<>();
    rates.put(ACME, acme);
    rates.put(OTHERS, others);
    rates.put(QUOTE, quote);
    rates.put(REPORT, report);
    rates.put(COMPUTE, compute);
    return rates;
  }
}
