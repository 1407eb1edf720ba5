package io.levee.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RequestRefusalsTest {
  private static final Blocked DB = refusal("db", false);
  private static final Blocked PARTNER = refusal("partner", false);

  private static Blocked refusal(String resource, boolean fallback) {
    return new Blocked(
        resource,
        "rate-limit",
        "levee: " + resource + " blocked the call (rate-limit)",
        503,
        2,
        "",
        "text/plain",
        new String[0],
        fallback,
        null);
  }

  @AfterEach
  void disarm() {
    RequestRefusals.disarm();
  }

  @Test
  void keepsTheLastRefusalOfAnArmedThread() {
    RequestRefusals.arm();
    assertThat(RequestRefusals.note(DB)).isSameAs(DB);
    RequestRefusals.note(PARTNER);
    assertThat(RequestRefusals.disarm()).isSameAs(PARTNER);
    assertThat(RequestRefusals.disarm()).isNull();
  }

  @Test
  void ignoresAdmittedCallsAndFallbacks() {
    RequestRefusals.arm();
    Object permit = new Permit(0, 0, 0) {};
    assertThat(RequestRefusals.note(permit)).isSameAs(permit);
    assertThat(RequestRefusals.note(null)).isNull();
    RequestRefusals.note(refusal("pay", true));
    assertThat(RequestRefusals.disarm()).isNull();
  }

  @Test
  void keepsNothingOnAThreadNotArmed() {
    RequestRefusals.note(DB);
    assertThat(RequestRefusals.disarm()).isNull();
  }

  @Test
  void aNewRequestStartsClean() {
    RequestRefusals.arm();
    RequestRefusals.note(DB);
    RequestRefusals.arm();
    assertThat(RequestRefusals.disarm()).isNull();
  }

  @Test
  void anotherThreadsRefusalIsNotThisRequests() throws Exception {
    RequestRefusals.arm();
    AtomicReference<Blocked> seen = new AtomicReference<>();
    Thread other =
        new Thread(
            () -> {
              RequestRefusals.note(DB);
              seen.set(RequestRefusals.disarm());
            });
    other.start();
    other.join();
    assertThat(seen.get()).isNull();
    assertThat(RequestRefusals.disarm()).isNull();
  }
}
