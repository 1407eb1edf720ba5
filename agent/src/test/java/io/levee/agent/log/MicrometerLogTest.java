package io.levee.agent.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.testing.EngineFixture;
import io.micrometer.common.util.internal.logging.InternalLogLevel;
import io.micrometer.common.util.internal.logging.InternalLogger;
import io.micrometer.common.util.internal.logging.InternalLoggerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MicrometerLogTest {
  private final InternalLoggerFactory before = InternalLoggerFactory.getDefaultFactory();

  @AfterEach
  void restore() {
    InternalLoggerFactory.setDefaultFactory(before);
  }

  @Test
  void sendsMicrometerWarningsAndErrorsToTheAgentLogAndDropsTheRest() {
    EngineFixture.Lines log = new EngineFixture.Lines();
    MicrometerLog.install(log);
    InternalLogger logger = InternalLoggerFactory.getInstance("io.micrometer.Test");

    logger.info("started");
    logger.debug("detail {}", 1);
    logger.warn("meter {} has tags {}", "levee.calls", "[a]");
    logger.log(InternalLogLevel.ERROR, "failed", new IllegalStateException("boom"));

    assertThat(logger.isWarnEnabled()).isTrue();
    assertThat(logger.isDebugEnabled()).isFalse();
    assertThat(log.lines)
        .containsExactly(
            "WARN micrometer io.micrometer.Test: meter levee.calls has tags [a]",
            "ERROR micrometer io.micrometer.Test: failed: java.lang.IllegalStateException: boom");
  }
}
