package io.levee.agent.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.time.ManualClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ErrorLogTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ManualClock clock = new ManualClock();
  private final ErrorLog errors =
      new ErrorLog(
          new AgentLog(new PrintStream(out, true, StandardCharsets.UTF_8), AgentLog.Level.INFO),
          clock);

  @Test
  void logsTheFirstErrorOfAKindThenAtMostOneLinePerIntervalWithTheCountLeftOut() {
    for (int i = 0; i < 3; i++) {
      errors.report(error("repeated"));
    }
    clock.advanceNanos(ErrorLog.INTERVAL_NANOS);
    errors.report(error("repeated"));

    assertThat(out.toString(StandardCharsets.UTF_8).lines())
        .containsExactly(
            "[levee] WARN internal error, the call went through unprotected: "
                + "java.lang.IllegalStateException: repeated",
            "[levee] WARN internal error, the call went through unprotected (2 more since the last "
                + "report): java.lang.IllegalStateException: repeated");
  }

  @Test
  void logsTheFirstErrorOfEachPlaceAtOnce() {
    errors.report(new IllegalStateException("here"));
    errors.report(elsewhere());
    errors.report(elsewhere());

    assertThat(out.toString(StandardCharsets.UTF_8).lines())
        .containsExactly(
            "[levee] WARN internal error, the call went through unprotected: "
                + "java.lang.IllegalStateException: here",
            "[levee] WARN internal error, the call went through unprotected: "
                + "java.lang.IllegalStateException: elsewhere");
  }

  private static IllegalStateException error(String message) {
    return new IllegalStateException(message);
  }

  private static IllegalStateException elsewhere() {
    return new IllegalStateException("elsewhere");
  }
}
