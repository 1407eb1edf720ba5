package io.levee.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import org.junit.jupiter.api.Test;

class AttachErrorsTest {
  @Test
  void aRuntimeWithoutTheAttachModuleIsToldToUseAJdk() {
    String message =
        AttachErrors.describe(
            "1", new IllegalStateException("No compatible attachment provider is available"));

    assertThat(message).contains("no attach module (jdk.attach").contains("java of a JDK");
  }

  @Test
  void aJvmRefusingDynamicAgentsGetsTheFlagThatAllowsThem() {
    Throwable refused =
        new IllegalStateException(
            "Error during attachment using: provider",
            new InvocationTargetException(
                new Exception(
                    "Failed to load agent library: Dynamic agent loading is not enabled. Use"
                        + " -XX:+EnableDynamicAgentLoading to launch target VM.")));

    assertThat(AttachErrors.describe("1", refused))
        .contains("refuses agents loaded at run time")
        .contains("restart it with -XX:+EnableDynamicAgentLoading")
        .contains("-javaagent:levee-agent.jar=rules=FILE");
  }

  @Test
  void aVanishedProcessIsNamed() {
    assertThat(AttachErrors.describe("77", new IOException("No such process")))
        .startsWith("no process with pid 77");
  }

  @Test
  void anUnreachableJvmGetsTheUsualCauses() {
    Throwable notSupported = new AttachNotSupportedException("Unable to open socket file");

    assertThat(AttachErrors.describe("5", notSupported))
        .startsWith("cannot attach to process 5 (Unable to open socket file)")
        .contains("-XX:+DisableAttachMechanism")
        .contains("container");
  }

  @Test
  void anOwnerCheckLetsTheOwnerAndRootThroughAndTellsEveryoneElseWhoToBe() {
    assertThat(TargetProcess.ownerProblem("9", "alice", "alice")).isNull();
    assertThat(TargetProcess.ownerProblem("9", "alice", "root")).isNull();
    assertThat(TargetProcess.ownerProblem("9", "alice", "bob"))
        .isEqualTo(
            "process 9 belongs to user alice, but this command runs as bob; a JVM lets only its"
                + " own user attach: run the command as alice (for example: sudo -u alice java"
                + " -jar levee-agent.jar ...)");
  }

  /** Stands in for com.sun.tools.attach's, which the describer knows by simple name only. */
  private static final class AttachNotSupportedException extends Exception {
    AttachNotSupportedException(String message) {
      super(message);
    }
  }
}
