package io.levee.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The agent in a JVM without the {@code java.net.http} module, as on Java 8 where it does not
 * exist: the JDK client's integration weaves nothing, defines nothing and warns of nothing, and the
 * rest protects as before. The module is left out with {@code --limit-modules} (every module of the
 * image but it and {@code java.se}, the only one that requires it).
 */
class WithoutJavaNetHttpIT {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: partner
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          rate-limit: { rate: 1/h, burst: 1 }
      """;

  @Test
  void theAgentStartsAndProtectsHttpUrlConnectionWithoutJavaNetHttp() {
    try (LocalHttpServer partner = LocalHttpServer.start();
        ForkedApp app =
            ForkedApp.of(TomcatApp.class)
                .env("JDK_JAVA_OPTIONS", "--limit-modules " + modulesButJavaNetHttp())
                .rules(RulesFile.write("without-java-net-http", RULES.formatted(partner.port())))
                .name("without-java-net-http")
                .start()) {
      AppClient client = new AppClient(app);
      String url = AppClient.encode(partner.url("/x"));

      assertThat(client.get("/jdkhttp?url=" + url).statusCode())
          .as("the application cannot use java.net.http either")
          .isEqualTo(500);
      assertThat(Reply.parse(client.get("/http?url=" + url).body()).get("status")).isEqualTo("200");
      Reply blocked = Reply.parse(client.get("/http?url=" + url).body());
      assertThat(blocked.get("message")).as(blocked.raw()).startsWith("levee:");
      assertThat(partner.received()).isEqualTo(1);
      assertThat(app.leveeLines())
          .anySatisfy(l -> assertThat(l).contains("integrations http, servlet, jdbc, ", "jdkhttp"))
          .noneSatisfy(l -> assertThat(l).containsAnyOf("WARN", "ERROR"));
    }
  }

  private static String modulesButJavaNetHttp() {
    return ModuleFinder.ofSystem().findAll().stream()
        .map(ModuleReference::descriptor)
        .filter(d -> !d.name().equals("java.net.http"))
        .filter(
            d ->
                d.requires().stream()
                    .map(ModuleDescriptor.Requires::name)
                    .noneMatch("java.net.http"::equals))
        .map(ModuleDescriptor::name)
        .sorted()
        .collect(Collectors.joining(","));
  }
}
