package io.levee.rules.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.method.OpenMethods;
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
    Object first = enter(quote);
    Fixture.permit(first);
    // Another thread's calls: this thread's open call of pricing would make them nested.
    Object[] others = new Object[2];
    runOnOtherThread(() -> others[0] = enter(quote));
    runOnOtherThread(() -> others[1] = enter(quote));
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
    Fixture.permit(enter(count));
    Object[] other = new Object[1];
    runOnOtherThread(() -> other[0] = enter(count));
    assertThat(Fixture.blocked(other[0]).exception)
        .isEqualTo("java.util.concurrent.RejectedExecutionException");
  }

  @Test
  void aCallInsideAnOpenCallOfTheSameResourceIsNotDecidedAgain() {
    f.apply(TWO);
    MethodSite quote = site(0);
    MethodSite otherMethodOfPricing = site(0);
    MethodSite count = site(1);
    Object outer = Fixture.permit(enter(quote));
    assertThat(enter(quote)).as("recursion").isNull();
    assertThat(enter(otherMethodOfPricing)).as("same resource").isNull();
    Object inner = Fixture.permit(enter(count));
    done(inner, 0L, null);
    done(outer, 0L, null);
    assertThat(f.view("pricing").inFlight()).isZero();
    assertThat(f.view("pricing").passed()).isEqualTo(1);
    assertThat(f.view("stock").passed()).isEqualTo(1);
    // Closed again: the next call is decided.
    Object next = Fixture.permit(enter(quote));
    done(next, 0L, new IllegalStateException("failed"));
    assertThat(f.view("pricing").inFlight()).isZero();
  }

  @Test
  void aBlockedCallLeavesNothingOpen() {
    f.apply(TWO);
    MethodSite count = site(1);
    Object[] holder = new Object[1];
    runOnOtherThread(() -> holder[0] = enter(count));
    Fixture.blocked(enter(count));
    done(holder[0], 0L, null);
    Object again = Fixture.permit(enter(count));
    done(again, 0L, null);
  }

  @Test
  void inMonitorModeACallOverTheLimitRunsAndIsCounted() {
    f.apply(
        TWO.replace(
            "    concurrency: { max: 1 }\n", "    concurrency: { max: 1 }\n    mode: monitor\n"));
    MethodSite count = site(1);
    Object[] holder = new Object[1];
    runOnOtherThread(() -> holder[0] = enter(count));
    Object over = Fixture.permit(enter(count));
    done(over, 0L, null);
    done(holder[0], 0L, null);
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
    Object permit = Fixture.permit(enter(count));
    done(permit, 0L, null);
    assertThat(f.view("stock").passed()).isEqualTo(1);
    // The match changed: the site is no longer that resource's until it is woven again.
    f.apply(
        "resources:\n"
            + "  - name: stock\n"
            + "    match: { method: { class: com.acme.Stock, methods: [total] } }\n"
            + "    concurrency: { max: 5 }\n");
    assertThat(enter(count)).isNull();
    f.apply("resources: []\n");
    assertThat(enter(count)).isNull();
  }

  /** What the method hooks do around the engine: keep an admitted call open on the thread. */
  private Object enter(MethodSite site) {
    Object token = f.engine.method(site);
    if (token instanceof Permit) {
      OpenMethods.open(((Permit) token).resourceId);
    }
    return token;
  }

  private void done(Object token, long start, Throwable error) {
    if (token instanceof Permit) {
      OpenMethods.close(((Permit) token).resourceId);
    }
    f.engine.methodDone(token, start, error);
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
