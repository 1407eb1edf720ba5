package io.levee.it.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.jetty.JettyApp;
import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JDK's {@code java.net.http.HttpClient} in a JVM started without the agent: a client made and
 * used before the attach is protected after it (the weave keeps nothing in the client, and the JDK
 * classes already loaded are retransformed), and answers as before once the agent detached.
 */
class JdkClientAttachIT {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: partner
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          rate-limit: { rate: 1/h, burst: 1 }
      """;

  @ParameterizedTest(name = "JDK {0}")
  @ValueSource(ints = {17, 25})
  void aClientMadeBeforeTheAttachIsProtectedAfterItAndFreedByTheDetach(int feature) {
    Jdk jdk = Jdk.require(feature);
    try (LocalHttpServer partner = LocalHttpServer.start();
        ForkedApp app =
            ForkedApp.of(feature == 17 ? TomcatApp.class : JettyApp.class)
                .jdk(jdk)
                .name("jdkclient-attach-jdk" + feature)
                .start()) {
      AppClient client = new AppClient(app);
      String url = "/jdkhttp?url=" + AppClient.encode(partner.url("/x"));
      assertThat(call(client, url + "&repeat=3").number("leveeExceptions")).isZero();
      Path rules =
          RulesFile.write("jdkclient-attach-jdk" + feature, RULES.formatted(partner.port()));

      Cli.Result attach = Cli.run(jdk, "attach", app.pid(), "--rules", rules.toString(), "--force");

      assertThat(attach.exit()).as("%s", attach).isZero();
      assertThat(call(client, url).get("status")).isEqualTo("200");
      Reply sent = call(client, url);
      assertThat(sent.get("failedAs")).as(sent.raw()).isEqualTo("thrown");
      assertThat(sent.get("message")).startsWith("levee:").contains("partner");
      Reply async = call(client, url + "&api=async");
      assertThat(async.get("failedAs")).as(async.raw()).isEqualTo("future");
      assertThat(async.get("message")).startsWith("levee:");
      assertThat(partner.received()).isEqualTo(4);

      Cli.Result detach = Cli.run(jdk, "detach", app.pid());

      assertThat(detach.exit()).as("%s", detach).isZero();
      assertThat(call(client, url + "&repeat=3").number("leveeExceptions")).isZero();
      assertThat(partner.received()).isEqualTo(7);
    }
  }

  private static Reply call(AppClient client, String pathAndQuery) {
    return Reply.parse(client.get(pathAndQuery).body());
  }
}
