package io.levee.it.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.RulesFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Commands to an agent that is already in load no agent again: on JDK 25, a JVM started with {@code
 * -javaagent} answers {@code status}, {@code reload}, a second {@code attach} and {@code detach}
 * through its command box, and the application's output never gets the JDK's warning about an agent
 * loaded at run time. The first attach into a bare JVM does load one, and says so.
 */
class CommandBoxIT {
  private static final String WARNING = "A Java agent has been loaded dynamically";
  private static final String RULES =
      """
      version: 1
      resources:
        - name: counted
          match: { servlet: { paths: ["/counted/**"] } }
          rate-limit: { rate: 1/s, burst: 1 }
      """;

  private final Jdk jdk25 = Jdk.require(25);
  private final Path rules = RulesFile.write("command-box", RULES);

  @Test
  void commandsToARunningAgentLoadNothingSoTheJvmWarnsOfNothing() {
    try (ForkedApp app =
        ForkedApp.of(TomcatApp.class)
            .jdk(jdk25)
            .agent("rules=" + rules.toAbsolutePath())
            .name("command-box")
            .start()) {
      String pid = app.pid();
      AppClient client = new AppClient(app);
      assertThat(client.get("/counted/a").statusCode()).isEqualTo(200);

      Cli.Result status = Cli.run(jdk25, "status", pid);
      Cli.Result reload = Cli.run(jdk25, "reload", pid);
      Cli.Result again = Cli.run(jdk25, "attach", pid, "--rules", rules.toString());
      Cli.Result detach = Cli.run(jdk25, "detach", pid);

      assertThat(status.exit()).as("%s", status).isZero();
      assertThat(status.out()).contains("counted", "servlet", "enforce");
      assertThat(reload.exit()).as("%s", reload).isZero();
      assertThat(reload.out()).contains("rules reloaded from " + rules.toAbsolutePath());
      assertThat(again.exit()).as("%s", again).isZero();
      assertThat(again.out()).contains("Levee was already running in this JVM");
      assertThat(again.err()).doesNotContain("EnableDynamicAgentLoading");
      assertThat(detach.exit()).as("%s", detach).isZero();
      assertThat(detach.out()).contains("Levee detached");
      assertThat(app.stderr()).doesNotContain(WARNING);
      assertThat(app.stdout()).doesNotContain(WARNING);
      assertThat(client.get("/counted/b").statusCode()).isEqualTo(200);
      assertThat(client.get("/counted/c").statusCode()).isEqualTo(200);

      Cli.Result attach = Cli.run(jdk25, "attach", pid, "--rules", rules.toString());

      assertThat(attach.exit()).as("%s", attach).isZero();
      assertThat(attach.err()).contains("-XX:+EnableDynamicAgentLoading");
      ForkedApp.sleep(500);
      assertThat(app.stderr()).contains(WARNING);
    }
  }

  @Test
  void aJvmThatAllowsAgentsAtRunTimeGetsNoNoteAboutTheFlag() {
    try (ForkedApp app =
        ForkedApp.of(TomcatApp.class)
            .jdk(jdk25)
            .jvmOption("-XX:+EnableDynamicAgentLoading")
            .name("command-box-flag")
            .start()) {
      Cli.Result attach = Cli.run(jdk25, "attach", app.pid(), "--rules", rules.toString());

      assertThat(attach.exit()).as("%s", attach).isZero();
      assertThat(attach.err()).doesNotContain("EnableDynamicAgentLoading");
      assertThat(app.stderr()).doesNotContain(WARNING);
    }
  }
}
