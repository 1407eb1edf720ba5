package io.levee.rules.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.Blocked;
import io.levee.rules.match.MethodPlan;
import io.levee.rules.model.Match;
import org.junit.jupiter.api.Test;

/**
 * Calls of woven methods ({@code method} resources): resolution, one decision per call, answers.
 */
class EngineMethodTest {
  private static final String TWO =
      "resources:\n"
          + "  - name: pricing\n"
          + "    match: { method: { class: com.acme.PriceClient } }\n"
          + "    concurrency: { max: 2 }\n"
          + "    on-block: { throw: com.acme.PricingUnavailableException }\n"
          + "  - name: stock\n"
          + "    match: { method: { class: com.acme.Stock, methods: [count] } }\n"
          + "    concurrency: { max: 1 }\n";

  private final Fixture f = new Fixture();

  /** A site as the weaver makes it: the method resource {@code k} of the rules in force. */
  private MethodSite site(int k) {
    MethodPlan plan = MethodPlan.of(f.engine.rules());
    return new MethodSite(new String[] {plan.name(k)}, new Match[] {plan.match(k)});
  }

  @Test
  void aBlockedCallThrowsTheResourcesExceptionWithALeveeMessage() {
    f.apply(TWO);
    MethodSite quote = site(0);
    Object first = f.engine.method(quote);
    Fixture.permit(first);
    // Another thread's calls: this thread's open call of pricing would make them nested.
    Object[] others = new Object[2];
    runOnOtherThread(() -> others[0] = f.engine.method(quote));
    runOnOtherThread(() -> others[1] = f.engine.method(quote));
    Fixture.permit(others[0]);
    Blocked blocked = Fixture.blocked(others[1]);
    assertThat(blocked.exception).isEqualTo("com.acme.PricingUnavailableException");
    assertThat(blocked.message).isEqualTo("levee: pricing blocked the call (concurrency)");
    assertThat(blocked.reason).isEqualTo("concurrency");
  }

  @Test
  void withoutThrowABlockedCallGetsRejectedExecutionException() {
    f.apply(TWO);
    MethodSite count = site(1);
    Fixture.permit(f.engine.method(count));
    Object[] other = new Object[1];
    runOnOtherThread(() -> other[0] = f.engine.method(count));
    assertThat(Fixture.blocked(other[0]).exception)
        .isEqualTo("java.util.concurrent.RejectedExecutionException");
  }

  @Test
  void aCallInsideAnOpenCallOfTheSameResourceIsNotDecidedAgain() {
    f.apply(TWO);
    MethodSite quote = site(0);
    MethodSite otherMethodOfPricing = site(0);
    MethodSite count = site(1);
    Object outer = Fixture.permit(f.engine.method(quote));
    assertThat(f.engine.method(quote)).as("recursion").isNull();
    assertThat(f.engine.method(otherMethodOfPricing)).as("same resource").isNull();
    Object inner = Fixture.permit(f.engine.method(count));
    f.engine.methodDone(inner, 0L, null);
    f.engine.methodDone(outer, 0L, null);
    assertThat(f.view("pricing").inFlight()).isZero();
    assertThat(f.view("pricing").passed()).isEqualTo(1);
    assertThat(f.view("stock").passed()).isEqualTo(1);
    // Closed again: the next call is decided.
    Object next = Fixture.permit(f.engine.method(quote));
    f.engine.methodDone(next, 0L, new IllegalStateException("failed"));
    assertThat(f.view("pricing").inFlight()).isZero();
  }

  @Test
  void aBlockedCallLeavesNothingOpen() {
    f.apply(TWO);
    MethodSite count = site(1);
    Object[] holder = new Object[1];
    runOnOtherThread(() -> holder[0] = f.engine.method(count));
    Fixture.blocked(f.engine.method(count));
    f.engine.methodDone(holder[0], 0L, null);
    Object again = Fixture.permit(f.engine.method(count));
    f.engine.methodDone(again, 0L, null);
  }

  @Test
  void inMonitorModeACallOverTheLimitRunsAndIsCounted() {
    f.apply(
        TWO.replace(
            "    concurrency: { max: 1 }\n", "    concurrency: { max: 1 }\n    mode: monitor\n"));
    MethodSite count = site(1);
    Object[] holder = new Object[1];
    runOnOtherThread(() -> holder[0] = f.engine.method(count));
    Object over = Fixture.permit(f.engine.method(count));
    f.engine.methodDone(over, 0L, null);
    f.engine.methodDone(holder[0], 0L, null);
    assertThat(f.view("stock").wouldBlock(Reason.CONCURRENCY)).isEqualTo(1);
    assertThat(f.view("stock").inFlight()).isZero();
  }

  @Test
  void aSiteFollowsItsResourceByNameAndMatchAcrossReloads() {
    f.apply(TWO);
    MethodSite count = site(1);
    // Reordered, with a policy changed: still the same name and match.
    f.apply(
        "resources:\n"
            + "  - name: stock\n"
            + "    match: { method: { class: com.acme.Stock, methods: [count] } }\n"
            + "    concurrency: { max: 5 }\n");
    Object permit = Fixture.permit(f.engine.method(count));
    f.engine.methodDone(permit, 0L, null);
    assertThat(f.view("stock").passed()).isEqualTo(1);
    // The match changed: the site is no longer that resource's until it is woven again.
    f.apply(
        "resources:\n"
            + "  - name: stock\n"
            + "    match: { method: { class: com.acme.Stock, methods: [total] } }\n"
            + "    concurrency: { max: 5 }\n");
    assertThat(f.engine.method(count)).isNull();
    f.apply("resources: []\n");
    assertThat(f.engine.method(count)).isNull();
  }

  private static void runOnOtherThread(Runnable r) {
    Thread t = new Thread(r);
    t.start();
    try {
      t.join();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
