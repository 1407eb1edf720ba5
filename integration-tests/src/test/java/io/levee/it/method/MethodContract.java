package io.levee.it.method;

import static io.levee.it.method.Shop.REJECTED;
import static io.levee.it.method.Shop.assertAllRan;
import static io.levee.it.method.Shop.assertTwoOfSix;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.lifecycle.Cli;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import io.levee.it.support.StatusRows;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import methodapp.MethodApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The {@code method} kind (SPEC §5.2) with the agent given at start-up: each kind of class an
 * application reaches its partners through (a plain class, the implementations of an interface, a
 * JDK proxy, a Spring {@code @Service} behind its CGLIB subclass, a class loaded later) under
 * {@code concurrency: { max: 2 }}, six callers at once: exactly two run the method, four get the
 * resource's exception with a {@code levee:} message. A proxy calling its target, or a method
 * another of the same resource, is one call: decided twice, the first caller would take both
 * permits and only one caller would run. Then static methods, the breaker, a checked exception the
 * method declares (and a method of a later class that cannot throw it), monitor mode and what
 * {@code status} and {@code /status} say.
 *
 * <p>One application for the class, each test on a resource of its own, so none depends on another
 * having run.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class MethodContract {
  static final String RULES =
      """
      version: 1
      resources:
        - name: inventory
          match: { method: { class: methodapp.shop.Inventory } }
          concurrency: { max: 2 }
        - name: warehouse
          match: { method: { class: methodapp.shop.Warehouse, methods: ["*"] } }
          concurrency: { max: 2 }
          on-block: { throw: methodapp.shop.ShipmentException }
        - name: quotes
          match: { method: { class: methodapp.shop.Quotes } }
          concurrency: { max: 2 }
          on-block: { throw: methodapp.shop.QuoteUnavailableException }
        - name: ledger
          match: { method: { class: methodapp.shop.Ledger } }
          concurrency: { max: 2 }
        - name: pricing
          match:
            method: { class: "methodapp.**.*Service", annotated: org.springframework.stereotype.Service }
          concurrency: { max: 2 }
        - name: late
          match: { method: { class: "methodapp.late.*" } }
          concurrency: { max: 2 }
        - name: partner
          match: { method: { class: methodapp.shop.Partner, methods: ["call*"] } }
          circuit-breaker: { failure-rate: 50%, minimum-calls: 5, window: 30s, open-for: 60s }
        - name: catalog
          match: { method: { class: methodapp.shop.Catalog } }
          concurrency: { max: 2 }
        - name: prices
          match: { method: { class: methodapp.shop.Prices, methods: [lookup] } }
          concurrency: { max: 2 }
        - name: audit
          mode: monitor
          match: { method: { class: methodapp.shop.AuditLog } }
          concurrency: { max: 1 }
        - name: courier-send
          match: { method: { class: methodapp.shop.Courier, methods: [send] } }
          rate-limit: { rate: 1/h, burst: 2 }
        - name: courier-track
          match: { method: { class: methodapp.shop.Courier, methods: [track] } }
          circuit-breaker: { failure-rate: 50%, minimum-calls: 4, window: 30s, open-for: 60s }
          failure: { exceptions: [java.lang.IllegalStateException] }
        - name: courier-deliver
          match: { method: { class: methodapp.shop.Courier, methods: [deliver] } }
          adaptive: { min-limit: 2, max-limit: 2, initial-limit: 2 }
      """;

  private Jdk jdk;
  private ForkedApp app;
  private Shop shop;
  private Path rules;
  private int statusPort;

  protected abstract int jdk();

  @BeforeAll
  void start() {
    jdk = Jdk.require(jdk());
    String name = "method-jdk" + jdk();
    rules = RulesFile.write(name, RULES);
    statusPort = freePort();
    app =
        ForkedApp.of(MethodApp.class)
            .jdk(jdk)
            .agent("rules=" + rules.toAbsolutePath() + ",http=127.0.0.1:" + statusPort)
            .name(name)
            .start();
    shop = new Shop(app);
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void startsWithEveryResourceAsKindMethodAndNothingToRetransform() {
    assertThat(app.leveeLines())
        .as("the agent's log")
        .anyMatch(l -> l.contains("INFO started: 13 resources from " + rules.toAbsolutePath()))
        .anyMatch(l -> l.endsWith("INFO method resources changed: retransformed 0 classes"))
        .noneMatch(l -> l.contains("ERROR") || l.contains("could not instrument"));
  }

  @Test
  void aPlainClassAdmitsTwoOfSixCallersAndItsNestedCallsAreNotDecidedAgain() throws Exception {
    StatusRows.Row before = row("inventory");

    Reply run = shop.run("inventory");

    assertTwoOfSix(run, "inventory", REJECTED);
    // reserve calls stock, both of the resource: one decision per caller.
    StatusRows.Row after = row("inventory");
    assertThat(after.passed() - before.passed()).as("admitted decisions").isEqualTo(2);
    assertThat(after.inFlight()).isZero();
    assertTwoOfSix(shop.run("inventory-stock"), "inventory", REJECTED);
    // A subclass: reserve (inherited) calls its stock, which calls super.stock.
    before = row("inventory");
    assertTwoOfSix(shop.run("inventory-discount"), "inventory", REJECTED);
    assertThat(row("inventory").passed() - before.passed()).isEqualTo(2);
  }

  @Test
  void bothImplementationsOfAnInterfaceShareItsResource() {
    assertTwoOfSix(shop.run("quotes-fast"), "quotes", "methodapp.shop.QuoteUnavailableException");
    assertTwoOfSix(shop.run("quotes-cheap"), "quotes", "methodapp.shop.QuoteUnavailableException");
    assertTwoOfSix(
        shop.run("quotes-fast,quotes-cheap"), "quotes", "methodapp.shop.QuoteUnavailableException");
  }

  @Test
  void aJdkProxyAndTheTargetItCallsAreOneCall() throws Exception {
    Reply classes = shop.classes();
    assertThat(classes.get("ledger.isProxy")).as("%s", classes).isEqualTo("true");
    StatusRows.Row before = row("ledger");

    Reply run = shop.run("ledger", "ledger-audit");

    assertTwoOfSix(run, "ledger", REJECTED);
    assertThat(row("ledger").passed() - before.passed()).isEqualTo(2);
    // audit is public on the target but not a method of the interface the rule names.
    assertThat(run.get("during.ledger-audit")).isEqualTo("returned audited");
    assertTwoOfSix(shop.run("ledger-book"), "ledger", REJECTED);
  }

  @Test
  void aSpringCglibProxyAndItsTargetAreOneCallAndItsOwnMethodsAreLeftAlone() throws Exception {
    Reply classes = shop.classes();
    assertThat(classes.get("pricing"))
        .as("the bean Spring hands out")
        .startsWith("methodapp.spring.PricingService$$")
        .contains("CGLIB");
    assertThat(classes.get("pricing-target")).isEqualTo("methodapp.spring.PricingService");
    StatusRows.Row before = row("pricing");

    Reply run = shop.run("pricing", "pricing-scoped", "pricing-advised", "pricing-string");

    assertTwoOfSix(run, "pricing", REJECTED);
    assertThat(row("pricing").passed() - before.passed()).isEqualTo(2);
    // The proxy's own methods (ScopedObject, Advised, Object's) are not PricingService's.
    assertThat(run.get("during.pricing-scoped"))
        .isEqualTo("returned class methodapp.spring.PricingService");
    assertThat(run.get("during.pricing-advised"))
        .isEqualTo("returned class methodapp.spring.PricingService");
    assertThat(run.get("during.pricing-string")).startsWith("returned methodapp.spring.");
  }

  @Test
  void aClassLoadedAfterTheStartIsWovenAsItLoads() {
    assertThat(shop.classes().get("late.loaded")).isEqualTo("false");

    Reply run = shop.run("late");

    // LateService matches pricing's class pattern too, but it is no @Service.
    assertTwoOfSix(run, "late", REJECTED);
    assertThat(shop.classes().get("late.loaded")).isEqualTo("true");
  }

  @Test
  void aBlockedCallThrowsTheCheckedExceptionItsMethodDeclares() {
    assertTwoOfSix(shop.run("warehouse"), "warehouse", "methodapp.shop.ShipmentException");
  }

  /**
   * Warehouse loads after the start, so the rules were not refused for it (nothing named was loaded
   * then); its {@code count} cannot throw ShipmentException: a blocked call throws the default
   * exception with the same message, and one warning names the method.
   */
  @Test
  void aMethodOfALaterClassThatCannotThrowTheCheckedExceptionThrowsTheDefaultOneAndOneWarning() {
    assertTwoOfSix(shop.run("warehouse-count"), "warehouse", REJECTED);
    assertTwoOfSix(shop.run("warehouse-count"), "warehouse", REJECTED);

    assertThat(app.leveeLines())
        .filteredOn(l -> l.contains("methodapp.shop.Warehouse.count"))
        .containsExactly(
            "[levee] WARN warehouse: on-block.throw methodapp.shop.ShipmentException cannot be"
                + " thrown: it is a checked exception that is not declared by"
                + " methodapp.shop.Warehouse.count(); threw a"
                + " java.util.concurrent.RejectedExecutionException instead");
  }

  @Test
  void aStaticMethodIsProtectedWhenTheRuleNamesItAndOnlyThen() {
    assertTwoOfSix(shop.run("prices-lookup"), "prices", REJECTED);
    assertTwoOfSix(shop.run("catalog-list"), "catalog", REJECTED);
    // Catalog's rule lists no methods: its public instance methods, not the static find.
    assertAllRan(shop.run("catalog-find"));
  }

  @Test
  void aBreakerOnAMethodThatThrowsOpensAndSparesTheMethod() throws Exception {
    Reply failing = shop.call("partner", "fail", 5);
    assertThat(failing.number("invocations")).as("%s", failing).isEqualTo(5);
    assertThat(failing.number("exception.java.lang.IllegalStateException")).isEqualTo(5);
    assertThat(row("partner").breaker()).isEqualTo("open");

    Reply spared = shop.call("partner", "ok", 10);

    assertThat(spared.number("invocations")).as("the method ran: %s", spared).isZero();
    assertThat(spared.number("exception." + REJECTED)).isEqualTo(10);
    assertThat(spared.get("messages")).isEqualTo("levee: partner blocked the call (circuit-open)");
    StatusRows.Row partner = row("partner");
    assertThat(partner.blocked()).containsEntry("circuit-open", 10L);
    assertThat(partner.calls()).containsEntry("failure", 5L);
    assertThat(StatusRows.metrics(statusPort))
        .containsPattern(
            "(?m)^levee_calls_total\\{kind=\"method\",outcome=\"failure\",resource=\"partner\"\\} 5(\\.0)?$")
        .containsPattern(
            "(?m)^levee_blocked_total\\{kind=\"method\",mode=\"enforce\",reason=\"circuit-open\","
                + "resource=\"partner\"\\} 10(\\.0)?$");
  }

  @Test
  void aRateLimitAdmitsItsBurstAndRefusesTheRest() throws Exception {
    Reply calls = shop.call("courier-send", "parcel", 6);

    assertThat(calls.number("invocations")).as("%s", calls).isEqualTo(2);
    assertThat(calls.number("exception." + REJECTED)).isEqualTo(4);
    assertThat(calls.get("messages"))
        .isEqualTo("levee: courier-send blocked the call (rate-limit)");
    assertThat(row("courier-send").blocked()).containsEntry("rate-limit", 4L);
  }

  @Test
  void failureExceptionsDecideWhatOpensTheBreaker() throws Exception {
    Reply wrongly = shop.call("courier-track", "bad", 6);
    assertThat(wrongly.number("exception.java.lang.IllegalArgumentException"))
        .as("the application's own exception reaches it: %s", wrongly)
        .isEqualTo(6);
    assertThat(row("courier-track").breaker())
        .as("not a failure of the courier")
        .isEqualTo("closed");

    Reply down = shop.call("courier-track", "busy", 6);

    assertThat(down.number("exception.java.lang.IllegalStateException")).isGreaterThanOrEqualTo(4);
    assertThat(row("courier-track").breaker()).isEqualTo("open");
    assertThat(shop.call("courier-track", "parcel", 1).get("messages"))
        .isEqualTo("levee: courier-track blocked the call (circuit-open)");
  }

  @Test
  void anAdaptiveLimitHoldsCallsInFlightToItsLimit() throws Exception {
    Reply run = shop.run("courier-deliver");

    assertThat(run.number("ran")).as("%s", run).isEqualTo(2);
    assertThat(run.number("exception." + REJECTED)).isEqualTo(4);
    assertThat(run.get("messages")).isEqualTo("levee: courier-deliver blocked the call (adaptive)");
    assertThat(row("courier-deliver").inFlight()).isZero();
  }

  @Test
  void monitorModeCountsWhatItWouldBlockAndBlocksNothing() throws Exception {
    Reply run = shop.run("audit");

    assertAllRan(run);
    StatusRows.Row audit = row("audit");
    assertThat(audit.mode()).isEqualTo("monitor");
    assertThat(audit.passed()).isEqualTo(6);
    assertThat(audit.wouldBlock()).isEqualTo(Map.of("concurrency", 5L));
    assertThat(audit.blocked()).isEmpty();
  }

  @Test
  void statusAndTheEndpointShowKindMethod() throws Exception {
    Map<String, StatusRows.Row> rows = StatusRows.get(statusPort);
    assertThat(rows.keySet())
        .containsExactly(
            "inventory",
            "warehouse",
            "quotes",
            "ledger",
            "pricing",
            "late",
            "partner",
            "catalog",
            "prices",
            "audit",
            "courier-send",
            "courier-track",
            "courier-deliver");
    assertThat(rows.values()).allSatisfy(r -> assertThat(r.kind()).isEqualTo("method"));

    Cli.Result status = Cli.run(jdk, "status", app.pid());
    assertThat(status.exit()).as("%s", status).isZero();
    assertThat(status.out())
        .containsPattern("(?m)^inventory +method +enforce +- +2 +0 +\\d+ +")
        .containsPattern("(?m)^partner +method +enforce +(closed|open) +- +0 +")
        .containsPattern("(?m)^audit +method +monitor +- +1 +0 +");
  }

  private StatusRows.Row row(String name) throws IOException, InterruptedException {
    return StatusRows.get(statusPort).get(name);
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
