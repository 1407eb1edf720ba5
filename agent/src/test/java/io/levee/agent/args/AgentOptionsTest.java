package io.levee.agent.args;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.log.AgentLog;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class AgentOptionsTest {
  private final Properties props = new Properties();

  @Test
  void agentArgumentsWinOverSystemPropertiesWhichWinOverEnvironment() {
    props.setProperty("levee.rules", "/from/property.yaml");
    props.setProperty("levee.log", "warn");
    Map<String, String> env =
        Map.of(
            "LEVEE_RULES", "/from/env.yaml", "LEVEE_LOG", "error", "LEVEE_LOG_FILE", "/tmp/l.log");

    AgentOptions options = AgentOptions.resolve("rules=/from/args.yaml", props, env);

    assertThat(options.rules()).isEqualTo("/from/args.yaml");
    assertThat(options.logLevel()).isEqualTo(AgentLog.Level.WARN);
    assertThat(options.logFile()).isEqualTo("/tmp/l.log");
    assertThat(options.problems()).isEmpty();
  }

  @Test
  void defaultsAreEnabledInfoAndNoRulesNorEndpoint() {
    AgentOptions options = AgentOptions.resolve(null, props, Map.of());

    assertThat(options.enabled()).isTrue();
    assertThat(options.rules()).isNull();
    assertThat(options.http()).isNull();
    assertThat(options.logLevel()).isEqualTo(AgentLog.Level.INFO);
  }

  @Test
  void readsEveryOptionFromCommaSeparatedArguments() {
    AgentOptions options =
        AgentOptions.resolve(
            "rules=/etc/levee.yaml, http=127.0.0.1:9464,log=DEBUG,log-file=/var/log/levee.log",
            props,
            Map.of());

    assertThat(options.rules()).isEqualTo("/etc/levee.yaml");
    assertThat(options.http()).isEqualTo("127.0.0.1:9464");
    assertThat(options.logLevel()).isEqualTo(AgentLog.Level.DEBUG);
    assertThat(options.logFile()).isEqualTo("/var/log/levee.log");
  }

  @Test
  void enabledFalseFromAnySourceTurnsTheAgentOff() {
    assertThat(AgentOptions.resolve("enabled=false", props, Map.of()).enabled()).isFalse();
    assertThat(AgentOptions.resolve(null, props, Map.of("LEVEE_ENABLED", "FALSE")).enabled())
        .isFalse();
    props.setProperty("levee.enabled", "false");
    assertThat(AgentOptions.resolve("enabled=true", props, Map.of()).enabled()).isTrue();
  }

  @Test
  void unreadableEnabledValueStaysOffAndSaysSo() {
    AgentOptions options = AgentOptions.resolve("enabled=yes please", props, Map.of());

    assertThat(options.enabled()).isFalse();
    assertThat(options.problems()).singleElement().asString().contains("enabled=yes please");
  }

  @Test
  void badLevelAndUnknownArgumentAreReportedAndIgnored() {
    AgentOptions options = AgentOptions.resolve("rule=/x.yaml,log=loud,verbose", props, Map.of());

    assertThat(options.rules()).isNull();
    assertThat(options.logLevel()).isEqualTo(AgentLog.Level.INFO);
    assertThat(options.problems())
        .hasSize(3)
        .anySatisfy(p -> assertThat(p).contains("'rule=/x.yaml'"))
        .anySatisfy(p -> assertThat(p).contains("log=loud"))
        .anySatisfy(p -> assertThat(p).contains("'verbose'"));
  }
}
