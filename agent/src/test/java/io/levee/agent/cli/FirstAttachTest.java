package io.levee.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class FirstAttachTest {
  private static Properties jvm(String version, String args, String flags) {
    Properties p = new Properties();
    p.setProperty("java.specification.version", version);
    if (args != null) {
      p.setProperty(Jvms.JVM_ARGS, args);
    }
    if (flags != null) {
      p.setProperty(Jvms.JVM_FLAGS, flags);
    }
    return p;
  }

  @Test
  void aBareJvmBefore23Deoptimizes() {
    assertThat(FirstAttach.deoptimizes(jvm("17", "-Xmx1g", null), null)).isTrue();
    assertThat(FirstAttach.deoptimizes(jvm("1.8", null, null), null)).isTrue();
    assertThat(FirstAttach.deoptimizes(jvm("22", "", null), null)).isTrue();
  }

  @Test
  void aJvmFrom23OnOrWithAnAgentFromItsStartDoesNot() {
    assertThat(FirstAttach.deoptimizes(jvm("23", "", null), null)).isFalse();
    assertThat(FirstAttach.deoptimizes(jvm("25", "", null), null)).isFalse();
    assertThat(FirstAttach.deoptimizes(jvm("17", "-javaagent:/opt/otel.jar", null), null))
        .isFalse();
    assertThat(FirstAttach.deoptimizes(jvm("17", "-agentlib:jdwp=transport=dt_socket", null), null))
        .isFalse();
    assertThat(FirstAttach.deoptimizes(jvm("11", "-agentpath:/opt/prof.so", null), null)).isFalse();
    // Levee dormant, or attached and detached before: the capabilities are there already.
    assertThat(FirstAttach.deoptimizes(jvm("17", "", null), "dormant")).isFalse();
    assertThat(FirstAttach.deoptimizes(jvm("17", "", null), "detached")).isFalse();
  }

  @Test
  void unknownVersionsAreNotRefused() {
    assertThat(FirstAttach.deoptimizes(jvm("x", "", null), null)).isFalse();
  }

  @Test
  void onlyAJvmFrom21OnWithoutTheFlagWarnsOfDynamicAgents() {
    assertThat(FirstAttach.warnsOfDynamicAgents(jvm("21", "-Xmx1g", null))).isTrue();
    assertThat(FirstAttach.warnsOfDynamicAgents(jvm("25", "-XX:+EnableDynamicAgentLoading", null)))
        .isFalse();
    assertThat(FirstAttach.warnsOfDynamicAgents(jvm("25", "", "+EnableDynamicAgentLoading")))
        .isFalse();
    assertThat(FirstAttach.warnsOfDynamicAgents(jvm("17", "", null))).isFalse();
  }

  @Test
  void theRefusalNamesTheCauseAndBothWaysOn() {
    String text = FirstAttach.refusal("4242", jvm("17", "", null));
    assertThat(text)
        .startsWith("not attached: process 4242 runs Java 17 and was started without an agent.")
        .contains("JDK-8324241", "-javaagent:levee-agent.jar=enabled=false")
        .endsWith("attach 4242 --force ...");
  }
}
