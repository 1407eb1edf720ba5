package io.levee.rules.engine;

import static io.levee.rules.engine.Fixture.blocked;
import static io.levee.rules.engine.Fixture.permit;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.Blocked;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EngineSystemTest {
  private final Fixture f = new Fixture();

  @BeforeEach
  void oneInboundRequestAtATime() {
    f.apply(
        "system:\n  exclude: [\"/health\", \"/actuator/**\"]\n"
            + "  adaptive: { min-limit: 1, max-limit: 1, initial-limit: 1 }\n"
            + "resources:\n  - name: shop\n    match: { servlet: { paths: [\"/shop/**\"] } }\n"
            + "    concurrency: { max: 1 }\n"
            + "  - name: out\n    match: { http: { urls: [\"http://x/**\"] } }\n"
            + "    concurrency: { max: 5 }\n");
  }

  @Test
  void shedsInboundRequestsPastItsLimitWithAndWithoutAResource() {
    Object first = permit(f.get("/other"));
    Blocked shed = blocked(f.get("/other"));
    assertThat(shed.reason).isEqualTo("system");
    assertThat(shed.resource).isEqualTo("system");
    assertThat(shed.status).isEqualTo(503);
    assertThat(shed.retryAfterSeconds).isEqualTo(1);
    assertThat(blocked(f.get("/shop/cart")).reason).isEqualTo("system");
    assertThat(f.view("shop").blocked(Reason.SYSTEM)).isEqualTo(1);
    assertThat(f.view("system").blocked(Reason.SYSTEM)).isEqualTo(2);
    f.ok(first);
    f.ok(permit(f.get("/shop/cart")));
    assertThat(f.view("system").inFlight()).isZero();
    assertThat(f.view("shop").inFlight()).isZero();
  }

  @Test
  void neverShedsExcludedPathsOrOutboundCalls() {
    Object held = permit(f.get("/other"));
    assertThat(f.get("/health")).isNull();
    assertThat(f.get("/actuator/metrics")).isNull();
    f.ok(permit(f.engine.http("GET", "http://x/")));
    f.ok(held);
  }

  @Test
  void givesTheSystemPermitBackWhenTheResourceBlocks() {
    Object shop = permit(f.get("/shop/a"));
    f.ok(shop);
    Object held = permit(f.get("/shop/b"));
    assertThat(blocked(f.get("/shop/c")).reason).isEqualTo("system");
    f.ok(held);
    // With the system free but the resource full, the resource blocks and the system permit
    // returns.
    f.apply(
        "system:\n  adaptive: { min-limit: 5, max-limit: 5, initial-limit: 5 }\n"
            + "resources:\n  - name: shop\n    match: { servlet: { paths: [\"/shop/**\"] } }\n"
            + "    concurrency: { max: 1 }\n");
    Object one = permit(f.get("/shop/a"));
    for (int i = 0; i < 10; i++) {
      assertThat(blocked(f.get("/shop/b")).reason).isEqualTo("concurrency");
    }
    assertThat(f.view("system").limit()).isEqualTo(5);
    for (int i = 0; i < 4; i++) {
      permit(f.get("/elsewhere/" + i));
    }
    assertThat(f.view("system").inFlight()).isEqualTo(5);
    f.ok(one);
  }

  @Test
  void aPageThatFillsTheLimitLeavesTheTopEighthToTheOtherPages() {
    f.apply("system:\n  adaptive: { min-limit: 16, max-limit: 16, initial-limit: 16 }\n");
    assertThat(RequestClasses.ofPath("/reports/7")).isNotEqualTo(RequestClasses.ofPath("/search"));
    f.ok(permit(f.get("/search")));
    List<Object> held = new ArrayList<>();
    for (int i = 0; i < 14; i++) {
      held.add(permit(f.get("/reports/" + i)));
    }
    assertThat(blocked(f.get("/reports/99")).reason).isEqualTo("system");
    held.add(permit(f.get("/search")));
    held.add(permit(f.get("/search?q=2")));
    assertThat(f.view("system").inFlight()).isEqualTo(16);
    for (Object permit : held) {
      f.ok(permit);
    }
    assertThat(f.view("system").inFlight()).isZero();
  }

  @Test
  void aPageIsItsPathUpToTwoSegmentsWithoutIds() {
    assertThat(RequestClasses.ofPath("/orders/1")).isEqualTo(RequestClasses.ofPath("/orders/2"));
    assertThat(RequestClasses.ofPath("/orders/1/lines"))
        .isEqualTo(RequestClasses.ofPath("/orders"));
    assertThat(RequestClasses.ofPath("/api/orders/9"))
        .isEqualTo(RequestClasses.ofPath("/api/orders/x/y"));
    assertThat(RequestClasses.ofPath("/api/orders"))
        .isNotEqualTo(RequestClasses.ofPath("/api/users"));
    assertThat(RequestClasses.ofPath("/cpu")).isNotEqualTo(RequestClasses.ofPath("/io"));
    assertThat(RequestClasses.ofPath(null)).isBetween(0, 15);
  }
}
