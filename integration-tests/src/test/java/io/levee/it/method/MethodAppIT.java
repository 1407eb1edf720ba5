package io.levee.it.method;

import static io.levee.it.method.Shop.assertAllRan;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.ForkedApp;
import io.levee.it.support.Reply;
import java.util.List;
import methodapp.MethodApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The test application of the {@code method} kind without the agent: every caller of a run runs its
 * method, all six in flight at once, and the services are the classes the tests expect. If these
 * fail, a failure of the method tests says nothing about Levee.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MethodAppIT {
  private ForkedApp app;
  private Shop shop;

  @BeforeAll
  void start() {
    app = ForkedApp.of(MethodApp.class).name("method-app").start();
    shop = new Shop(app);
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void everyCallerRunsItsMethodAndAllSixAreInFlightTogether() {
    for (String target :
        List.of(
            "inventory",
            "inventory-stock",
            "inventory-discount",
            "warehouse",
            "quotes-fast,quotes-cheap",
            "ledger",
            "ledger-book",
            "pricing",
            "late",
            "later",
            "catalog-list",
            "catalog-find",
            "prices-lookup",
            "audit")) {
      Reply run = shop.run(target);
      assertAllRan(run);
      assertThat(run.number("arrived")).as("%s: %s", target, run).isEqualTo(6);
      assertThat(run.number("invocations")).as("%s: one method body per call", target).isEqualTo(6);
    }
  }

  @Test
  void theServicesAreAPlainClassAJdkProxyAndASpringCglibSubclass() {
    Reply classes = shop.classes();
    assertThat(classes.get("inventory")).isEqualTo("methodapp.shop.Inventory");
    assertThat(classes.get("ledger.isProxy")).isEqualTo("true");
    assertThat(classes.get("pricing"))
        .startsWith("methodapp.spring.PricingService$$EnhancerBySpringCGLIB$$");
    assertThat(classes.get("spring")).startsWith("5.3.");
    Reply run = shop.run("pricing", "pricing-scoped", "pricing-advised");
    assertThat(run.get("during.pricing-scoped"))
        .isEqualTo("returned class methodapp.spring.PricingService");
    assertThat(run.get("during.pricing-advised"))
        .isEqualTo("returned class methodapp.spring.PricingService");
  }

  @Test
  void theApplicationsOwnExceptionsReachTheCaller() {
    Reply failing = shop.call("partner", "fail", 3);
    assertThat(failing.number("exception.java.lang.IllegalStateException")).isEqualTo(3);
    assertThat(failing.get("messages")).isEqualTo("partner down");
    Reply refused = shop.call("warehouse", "refused", 1);
    assertThat(refused.number("exception.methodapp.shop.ShipmentException")).isEqualTo(1);
  }
}
