package io.levee.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import io.levee.it.support.TestPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An async client made and used before a runtime attach is protected after it, and left as it was
 * after a detach: the weave keeps nothing in the client, so the classes it already loaded (the
 * client, {@code BasicFuture}, the consumers, the context and the connection endpoint) are
 * retransformed and restored like the rest.
 */
class ApacheAsyncAttachIT {
  @Test
  void aClientMadeBeforeTheAttachIsProtectedAfterItAndFreeAfterTheDetach() throws Exception {
    Jdk jdk = Jdk.require(17);
    try (LocalHttpServer partner = LocalHttpServer.start();
        ForkedApp app =
            ForkedApp.of(TomcatApp.class).jdk(jdk).name("apache-async-attach").start()) {
      AppClient client = new AppClient(app);
      for (int i = 0; i < 3; i++) {
        assertThat(call(client, partner).get("status")).isEqualTo("200");
      }
      Path rules =
          RulesFile.write(
              "apache-async-attach",
              """
              version: 1
              resources:
                - name: partner
                  match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
                  rate-limit: { rate: 1/h, burst: 1 }
              """
                  .formatted(partner.port()));

      assertThat(cli(jdk, "attach", app.pid(), "--rules", rules.toString(), "--force")).isZero();
      assertThat(call(client, partner).get("status")).isEqualTo("200");
      Reply blocked = call(client, partner);
      assertThat(blocked.get("message")).as(blocked.raw()).startsWith("levee:");
      assertThat(blocked.get("callback")).startsWith("failed levee:");
      int received = partner.received();

      assertThat(cli(jdk, "detach", app.pid())).isZero();
      Reply free = call(client, partner);
      assertThat(free.get("status")).as(free.raw()).isEqualTo("200");
      assertThat(partner.received()).isEqualTo(received + 1);
      assertThat(app.leveeLines()).noneMatch(l -> l.contains("WARN") || l.contains("ERROR"));
    }
  }

  private static Reply call(AppClient client, LocalHttpServer partner) {
    String url = AppClient.encode(partner.url("/x"));
    return Reply.parse(client.get("/apache-async?url=" + url).body());
  }

  /** {@code java -jar levee-agent.jar ARGS}, as a user runs it; its exit status. */
  private static int cli(Jdk jdk, String... args) throws IOException, InterruptedException {
    java.util.List<String> command =
        new java.util.ArrayList<>(
            java.util.List.of(jdk.java().toString(), "-jar", TestPaths.agentJar().toString()));
    command.addAll(java.util.List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getOutputStream().close();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(command + " did not finish: " + output);
    }
    System.out.println(String.join(" ", args) + ": " + output.strip());
    return p.exitValue();
  }
}
