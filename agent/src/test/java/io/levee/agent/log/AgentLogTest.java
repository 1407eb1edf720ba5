package io.levee.agent.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.args.AgentOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentLogTest {
  @TempDir Path dir;

  @Test
  void writesPrefixedLinesAtOrAboveItsLevel() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    AgentLog log =
        new AgentLog(new PrintStream(out, true, StandardCharsets.UTF_8), AgentLog.Level.WARN);

    log.error("rules file x.yaml not found: protecting nothing");
    log.warn("slow", new IllegalStateException("boom"));
    log.info("started");
    log.debug("details");

    assertThat(out.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "[levee] ERROR rules file x.yaml not found: protecting nothing\n"
                + "[levee] WARN slow: java.lang.IllegalStateException: boom\n");
  }

  @Test
  void addsStackTracesOnlyAtDebug() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    AgentLog log =
        new AgentLog(new PrintStream(out, true, StandardCharsets.UTF_8), AgentLog.Level.DEBUG);

    log.error("failed", new IllegalStateException("boom"));

    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("\tat " + AgentLogTest.class.getName());
  }

  @Test
  void appendsToTheLogFileWhenOneIsGiven() throws IOException {
    Path file = dir.resolve("levee.log");
    Files.writeString(file, "earlier\n");
    AgentOptions options =
        AgentOptions.resolve("log-file=" + file + ",log=debug", new Properties(), Map.of());

    AgentLog.open(options.logFile(), options.logLevel()).debug("hello");

    assertThat(Files.readString(file)).isEqualTo("earlier\n[levee] DEBUG hello\n");
  }

  @Test
  void closesTheLogFileItOpenedButNotAStreamItWasGiven() throws IOException {
    Path file = dir.resolve("levee.log");
    AgentOptions options = AgentOptions.resolve("log-file=" + file, new Properties(), Map.of());
    AgentLog fileLog = AgentLog.open(options.logFile(), options.logLevel());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream given = new PrintStream(out, true, StandardCharsets.UTF_8);
    AgentLog streamLog = new AgentLog(given, AgentLog.Level.INFO);

    fileLog.info("before");
    fileLog.close();
    fileLog.info("after");
    streamLog.close();
    streamLog.info("still open");

    assertThat(Files.readString(file)).isEqualTo("[levee] INFO before\n");
    assertThat(given.checkError()).isFalse();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("[levee] INFO still open\n");
  }
}
