package io.levee.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import org.junit.jupiter.api.Test;

/**
 * DESIGN "third-party libraries never leak": an application with its own SnakeYAML 1.33 and
 * ByteBuddy uses them at run time while the agent, with its own shaded copies, protects it.
 */
public abstract class OwnLibrariesContract {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: limited
          match: { servlet: { paths: ["/limited/**"] } }
          rate-limit: { rate: 1/h, burst: 1 }
      """;

  protected abstract int jdk();

  @Test
  void applicationUsesItsOwnSnakeYamlAndByteBuddyUnderTheAgent() {
    String name = "own-libraries-jdk" + jdk();
    try (ForkedApp app =
        ForkedApp.of(TomcatApp.class)
            .jdk(Jdk.require(jdk()))
            .rules(RulesFile.write(name, RULES))
            .name(name)
            .start()) {
      AppClient client = new AppClient(app);
      Reply libs = Reply.parse(client.get("/libs").body());
      assertThat(libs.get("yaml")).as(libs.raw()).isEqualTo("{name=app, items=[1, 2]}");
      assertThat(libs.get("yamlJar")).contains("snakeyaml-1.33");
      assertThat(libs.get("bytebuddy")).isEqualTo("made by the app's byte buddy");
      assertThat(libs.get("bytebuddyJar")).contains("byte-buddy-");
      // and the agent is really there, protecting
      assertThat(client.get("/limited/x").statusCode()).isEqualTo(200);
      assertThat(client.get("/limited/x").statusCode()).isEqualTo(429);
      assertThat(app.stderr()).doesNotContain("LinkageError").doesNotContain("NoSuchMethodError");
    }
  }
}
