package io.levee.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ClientLines;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import io.levee.it.support.TestPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An application that has been calling through its {@code OkHttpClient} (OkHttp 3.14, whose
 * interceptor class is loaded by then) gets the agent attached at run time: the same client is
 * protected from the next call on, and after a detach it calls as before.
 */
class OkHttpAttachIT {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: attached
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          rate-limit: { rate: 2/h, burst: 2 }
      """;

  @Test
  void aClientMadeBeforeTheAttachIsProtectedAfterItAndFreedByTheDetach() throws Exception {
    try (LocalHttpServer server = LocalHttpServer.start();
        ForkedApp app =
            ForkedApp.of(TomcatApp.class)
                .jdk(Jdk.require(17))
                .classPath(ClientLines.applicationClassPath("okhttp3"))
                .name("okhttp3-attach-jdk17")
                .start()) {
      AppClient client = new AppClient(app);
      String call = "/okhttp?url=" + AppClient.encode(server.url("/x"));
      for (String via : new String[] {"execute", "enqueue"}) {
        Reply before = Reply.parse(client.get(call + "&via=" + via + "&repeat=3").body());
        assertThat(before.number("status200")).as(before.raw()).isEqualTo(3);
      }

      Path rules = RulesFile.write("okhttp3-attach", RULES.formatted(server.port()));
      String attached =
          cli("attach", app.pid(), "--rules", rules.toAbsolutePath().toString(), "--force");
      assertThat(attached).contains("Levee started: 1 resource");
      Reply limited = Reply.parse(client.get(call + "&repeat=3").body());
      assertThat(limited.number("status200")).as(limited.raw()).isEqualTo(2);
      assertThat(limited.number("leveeExceptions")).isEqualTo(1);
      Reply queued = Reply.parse(client.get(call + "&via=enqueue").body());
      assertThat(queued.get("message")).as(queued.raw()).startsWith("levee:");
      assertThat(queued.get("thread")).startsWith("OkHttp");

      cli("detach", app.pid());
      Reply after = Reply.parse(client.get(call + "&repeat=3").body());
      assertThat(after.number("status200")).as(after.raw()).isEqualTo(3);
      assertThat(server.received()).isEqualTo(6 + 2 + 3);
    }
  }

  /** {@code java -jar levee-agent.jar <args>}; its output, once it exited with 0. */
  private static String cli(String... args) throws IOException, InterruptedException {
    Path out = TestPaths.workDir().resolve("okhttp3-attach-cli.log");
    List<String> command =
        new ArrayList<>(
            List.of(Jdk.require(17).java().toString(), "-jar", TestPaths.agentJar().toString()));
    command.addAll(List.of(args));
    Process p =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
    String output = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(output).isZero();
    return output;
  }
}
