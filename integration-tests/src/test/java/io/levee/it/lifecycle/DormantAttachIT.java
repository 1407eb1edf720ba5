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
 * A JVM started with the agent disabled ({@code enabled=false}) is dormant: it protects nothing and
 * says so in {@code list}, and an attach then protects it without a word about the JVM deoptimizing
 * all compiled code at the first instrumentation, which a JVM before 23 does only when no agent was
 * there from the start. Into a bare JVM before 23, attach loads nothing unless given {@code
 * --force}, and says why before anything is paid.
 */
class DormantAttachIT {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: counted
          match: { servlet: { paths: ["/counted/**"] } }
          rate-limit: { rate: 1/s, burst: 1 }
      """;

  private final Jdk jdk = Jdk.current();
  private final Path rules = RulesFile.write("dormant", RULES);

  @Test
  void aDormantAgentProtectsNothingUntilAnAttachWhichThenNeedsNoDeoptimizationNote() {
    try (ForkedApp app =
        ForkedApp.of(TomcatApp.class).jdk(jdk).agent("enabled=false").name("dormant").start()) {
      AppClient client = new AppClient(app);
      String pid = app.pid();
      assertThat(status(client)).containsExactly(200, 200, 200);
      assertThat(Cli.run(jdk, "list").out())
          .containsPattern("(?m)^" + pid + " +dormant +" + TomcatApp.class.getName());

      Cli.Result attach = Cli.run(jdk, "attach", pid, "--rules", rules.toString());

      assertThat(attach.exit()).as("%s", attach).isZero();
      assertThat(attach.err()).doesNotContain("JDK-8324241").doesNotContain("does not upgrade");
      assertThat(status(client)).containsExactly(200, 429, 429);
    }
  }

  /**
   * The JVM keeps the Levee classes it loaded first, so an attach of another version says so before
   * it runs them. The dormant JVM is told it loaded an older version the way the agent records it,
   * as the agent keeps a version it finds already set.
   */
  @Test
  void anAttachOfAnotherVersionSaysItDoesNotUpgrade() {
    try (ForkedApp app =
        ForkedApp.of(TomcatApp.class)
            .jdk(jdk)
            .agent("enabled=false")
            .systemProperty("levee.agent.version", "0.0.1-older")
            .name("dormant-older")
            .start()) {
      Cli.Result attach = Cli.run(jdk, "attach", app.pid(), "--rules", rules.toString());

      assertThat(attach.exit()).as("%s", attach).isZero();
      assertThat(attach.err())
          .contains(
              "loaded Levee 0.0.1-older before and keeps running it: attach does not upgrade");
      assertThat(status(new AppClient(app))).containsExactly(200, 429, 429);
    }
  }

  @Test
  void aFirstAttachBeforeJdk23IsRefusedWithoutForceAndSaysWhyBeforeItIsPaid() {
    try (ForkedApp app = ForkedApp.of(TomcatApp.class).jdk(jdk).name("bare-attach").start()) {
      AppClient client = new AppClient(app);
      Cli.Result attach = Cli.run(jdk, "attach", app.pid(), "--rules", rules.toString());

      if (Runtime.version().feature() >= 23) {
        assertThat(attach.exit()).as("%s", attach).isZero();
        assertThat(attach.err()).doesNotContain("JDK-8324241");
        return;
      }
      assertThat(attach.exit()).as("%s", attach).isEqualTo(1);
      assertThat(attach.err())
          .startsWith("levee: not attached: process " + app.pid() + " runs Java ")
          .contains("JDK-8324241", "enabled=false", "--force");
      assertThat(Cli.run(jdk, "list").out())
          .containsPattern("(?m)^" + app.pid() + " +no +" + TomcatApp.class.getName());
      assertThat(status(client)).containsExactly(200, 200, 200);

      Cli.Result forced = Cli.run(jdk, "attach", app.pid(), "--rules", rules.toString(), "--force");

      assertThat(forced.exit()).as("%s", forced).isZero();
      assertThat(forced.err()).startsWith("levee: attaching with --force: process " + app.pid());
      assertThat(forced.out()).contains("Levee started: 1 resource");
      assertThat(status(client)).containsExactly(200, 429, 429);
    }
  }

  private static int[] status(AppClient client) {
    int[] codes = new int[3];
    for (int i = 0; i < codes.length; i++) {
      codes[i] = client.get("/counted/x").statusCode();
    }
    return codes;
  }
}
