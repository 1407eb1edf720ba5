package io.levee.agent;

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
          new AgentLog(new PrintStream(out, true, StandardCharsets.UTF_8), AgentLog.Level.INFO), clock);

  @Test
  void logsTheFirstErrorThenAtMostOneLinePerIntervalWithTheCountLeftOut() {
    errors.report(new IllegalStateException("first"));
    errors.report(new IllegalStateException("second"));
    errors.report(new IllegalStateException("third"));
    clock.advanceNanos(ErrorLog.INTERVAL_NANOS);
    errors.report(new IllegalStateException("fourth"));

    assertThat(out.toString(StandardCharsets.UTF_8).lines())
        .containsExactly(
            "[levee] WARN internal error, the call went through unprotected: "
                + "java.lang.IllegalStateException: first",
            "[levee] WARN internal error, the call went through unprotected (2 more since the last "
                + "report): java.lang.IllegalStateException: fourth");
  }
}
