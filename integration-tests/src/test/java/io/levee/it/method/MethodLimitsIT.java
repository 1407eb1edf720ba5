package io.levee.it.method;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.lifecycle.Cli;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import io.levee.it.support.StatusRows;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import methodapp.MethodApp;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * What a {@code method} resource may not name: the JDK and the agent, checked in the file ({@code
 * validate}, the same checks as every load), and more than 2000 classes, checked against the
 * classes of the running application: a file that names more loaded classes is rejected with the
 * rules in force kept, and once 2000 are woven the classes that load later stay as they are, with a
 * warning.
 */
class MethodLimitsIT {
  @Test
  void classPatternsThatCouldWeaveTheJdkOrTheAgentAndKeysThatDoNotApplyAreErrors() {
    Path rules =
        RulesFile.write(
            "method-static-checks",
            """
            version: 1
            resources:
              - name: jdk
                match: { method: { class: "java.util.concurrent.*" } }
                concurrency: { max: 2 }
              - name: leading-wildcard
                match: { method: { class: "*.PriceClient" } }
                concurrency: { max: 2 }
              - name: everything
                match: { method: { class: "**" } }
                concurrency: { max: 2 }
              - name: agent
                match: { method: { class: [com.acme.Client, io.levee.agent.Foo] } }
                concurrency: { max: 2 }
              - name: sun
                match: { method: { class: "sun.net.**" } }
                concurrency: { max: 2 }
              - name: jdk-internal
                match: { method: { class: "jdk.internal.**" } }
                concurrency: { max: 2 }
              - name: com-sun
                match: { method: { class: "com.sun.net.httpserver.*" } }
                concurrency: { max: 2 }
              - name: bytebuddy
                match: { method: { class: "net.bytebuddy.**" } }
                concurrency: { max: 2 }
              - name: keyed
                match: { method: { class: com.acme.Client } }
                rate-limit: { rate: 5/s, per: ip }
              - name: timed
                match: { method: { class: com.acme.Client } }
                timeouts: { read: 1s }
              - name: status
                match: { method: { class: com.acme.Client } }
                concurrency: { max: 2 }
                on-block: { status: 503 }
              - name: http-throw
                match: { http: { urls: ["http://partner.example/**"] } }
                concurrency: { max: 2 }
                on-block: { throw: java.lang.IllegalStateException }
              - name: fine
                match: { method: { class: "com.acme.**.*Client", methods: [quote, "find*"] } }
                concurrency: { max: 2 }
                on-block: { throw: com.acme.PricingUnavailableException }
            """);

    Cli.Result validate = Cli.run(Jdk.require(17), "validate", rules.toString());

    assertThat(validate.exit()).as("%s", validate).isEqualTo(1);
    String out = validate.out() + validate.err();
    SoftAssertions soft = new SoftAssertions();
    for (String path :
        new String[] {
          "resources[0].match.method.class",
          "resources[1].match.method.class",
          "resources[2].match.method.class",
          "resources[3].match.method.class[1]",
          "resources[4].match.method.class",
          "resources[5].match.method.class",
          "resources[6].match.method.class",
          "resources[7].match.method.class",
          "resources[8].rate-limit.per",
          "resources[9].timeouts",
          "resources[10].on-block.status",
          "resources[11].on-block.throw"
        }) {
      soft.assertThat(out)
          .as("an error at %s", path)
          .containsPattern(":\\d+:\\d+: \\Q" + path + ": ");
    }
    soft.assertThat(out).as("the valid resource").doesNotContain("resources[12]");
    soft.assertAll();
  }

  @Test
  void atMost2000ClassesAreWovenAndAFileThatNamesMoreLoadedClassesIsRejected() throws Exception {
    String yaml =
        """
        version: 1
        settings: { reload: 0 }
        resources:
          - name: jobs
            match: { method: { class: methodapp.gen.Job } }
            concurrency: { max: 100 }
        """;
    Path rules = RulesFile.write("method-limits", yaml);
    int statusPort = freePort();
    try (ForkedApp app =
        ForkedApp.of(MethodApp.class)
            .jdk(Jdk.require(17))
            .agent("rules=" + rules.toAbsolutePath() + ",http=127.0.0.1:" + statusPort)
            .name("method-limits")
            .start()) {
      AppClient client = new AppClient(app);

      assertThat(client.get("/generate?count=2001").body()).contains("generated=2001");
      Reply jobs = Reply.parse(client.get("/jobs").body());

      assertThat(jobs.number("returned")).as("%s", jobs).isEqualTo(2001);
      assertThat(StatusRows.get(statusPort).get("jobs").passed())
          .as("calls decided: one per woven class")
          .isEqualTo(2000);
      assertThat(app.leveeLines())
          .anyMatch(
              l ->
                  l.contains("WARN method resources already weave 2000 classes")
                      && l.contains("methodapp.gen.JobImpl02000"));

      // The same resource with its methods listed: a change of its match, checked against the
      // 2001 classes loaded now.
      String listed =
          yaml.replace("class: methodapp.gen.Job }", "class: methodapp.gen.Job, methods: [work] }");
      RulesFile.write("method-limits", listed);
      Cli.Result reload = Cli.run(Jdk.require(17), "reload", app.pid());

      assertThat(reload.exit()).as("%s", reload).isEqualTo(1);
      assertThat(reload.err())
          .contains(rules + ":" + where(listed, "method:") + ": resources[0].match.method: ")
          .contains("2001 loaded classes, more than the 2000");
      Reply again = Reply.parse(client.get("/jobs").body());
      assertThat(again.number("returned")).isEqualTo(2001);
      assertThat(StatusRows.get(statusPort).get("jobs").passed())
          .as("the rules in force still decide the same classes")
          .isEqualTo(4000);
    }
  }

  /** {@code line:column} of the first {@code text} in {@code yaml}, both from 1. */
  private static String where(String yaml, String text) {
    String[] lines = yaml.split("\n");
    for (int i = 0; i < lines.length; i++) {
      int column = lines[i].indexOf(text);
      if (column >= 0) {
        return (i + 1) + ":" + (column + 1);
      }
    }
    throw new IllegalArgumentException(text);
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
