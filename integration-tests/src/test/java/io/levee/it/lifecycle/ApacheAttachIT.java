package io.levee.it.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Apache HttpClient 4 and 5 clients made and used before a runtime attach (their classes loaded,
 * their pools holding connections) are protected once the attach returns, and left alone again
 * after the detach: the woven classes are retransformed both ways, and nothing is kept in the
 * client objects.
 */
class ApacheAttachIT {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: hc4
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          rate-limit: { rate: 1/h, burst: 1 }
        - name: hc5
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          rate-limit: { rate: 1/h, burst: 1 }
      """;

  private final Jdk jdk = Jdk.current();
  private final LocalHttpServer hc4 = LocalHttpServer.start();
  private final LocalHttpServer hc5 = LocalHttpServer.start();

  @AfterEach
  void stop() {
    Stream.of(hc4, hc5).forEach(LocalHttpServer::close);
  }

  @Test
  void clientsMadeBeforeTheAttachAreProtectedAfterItAndFreeAfterTheDetach() {
    Path rules = RulesFile.write("apache-attach", RULES.formatted(hc4.port(), hc5.port()));
    try (ForkedApp app = ForkedApp.of(TomcatApp.class).jdk(jdk).name("apache-attach").start()) {
      AppClient client = new AppClient(app);
      assertThat(outcomes(client, "hc4", hc4, 3)).containsOnly("200");
      assertThat(outcomes(client, "hc5", hc5, 3)).containsOnly("200");

      Cli.Result attach = Cli.run(jdk, "attach", app.pid(), "--rules", rules.toString(), "--force");
      assertThat(attach.exit()).as("%s", attach).isZero();

      assertThat(outcomes(client, "hc4", hc4, 3)).containsExactly("200", "levee", "levee");
      assertThat(outcomes(client, "hc5", hc5, 3)).containsExactly("200", "levee", "levee");
      assertThat(hc4.received()).isEqualTo(4);
      assertThat(hc5.received()).isEqualTo(4);

      Cli.Result detach = Cli.run(jdk, "detach", app.pid());
      assertThat(detach.exit()).as("%s", detach).isZero();

      assertThat(outcomes(client, "hc4", hc4, 2)).containsOnly("200");
      assertThat(outcomes(client, "hc5", hc5, 2)).containsOnly("200");
      assertThat(app.leveeLines()).noneMatch(l -> l.contains("could not instrument"));
    }
  }

  /** Each call's status, or {@code levee} for a blocked one; the pool has nothing leased after. */
  private static List<String> outcomes(
      AppClient client, String name, LocalHttpServer server, int calls) {
    String url = AppClient.encode(server.url("/x"));
    return Stream.generate(
            () -> {
              Reply r = Reply.parse(client.get("/apache?client=" + name + "&url=" + url).body());
              assertThat(r.get("leased")).as(r.raw()).isEqualTo("0");
              return r.get("message").startsWith("levee:") ? "levee" : r.get("status");
            })
        .limit(calls)
        .toList();
  }
}
