package io.levee.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.RulesFile;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * SPEC §1 "the agent fails open, always", on a real application: with a fault forced inside the
 * dispatcher ({@code -Dlevee.inject-faults=true}, every decision and every outcome throws), the
 * application's answers to servlet, http and jdbc calls are exactly those it gives without the agent,
 * although the same rules, working, block most of them.
 */
class InjectedFaultsIT {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: pages
          match: { servlet: { paths: ["/limited/**"] } }
          rate-limit: { rate: 1/h, burst: 1 }
        - name: partner
          match: { http: { urls: ["http://127.0.0.1:*/**"] } }
          rate-limit: { rate: 1/h, burst: 1 }
        - name: database
          match: { jdbc: { urls: ["jdbc:h2:**"] } }
          rate-limit: { rate: 1/h, burst: 1 }
      """;

  @Test
  void answersAsWithoutTheAgentWhenTheDispatcherFails() {
    Path rules = RulesFile.write("injected-faults", RULES);
    try (LocalHttpServer partner = LocalHttpServer.start().ok()) {
      List<String> without = answers(ForkedApp.of(TomcatApp.class).name("faults-no-agent"), partner);
      List<String> faulty;
      String faultyLog;
      try (ForkedApp app =
          ForkedApp.of(TomcatApp.class)
              .rules(rules)
              .systemProperty("levee.inject-faults", "true")
              .name("faults-injected")
              .start()) {
        faulty = answers(app, partner);
        faultyLog = String.join("\n", app.leveeLines());
      }
      List<String> protectedAnswers =
          answers(ForkedApp.of(TomcatApp.class).rules(rules).name("faults-none"), partner);

      assertThat(faulty).isEqualTo(without);
      assertThat(faultyLog).contains("inject-faults").contains("fault injected in");
      // The rules do block when the dispatcher works, so the comparison above could fail.
      assertThat(protectedAnswers).isNotEqualTo(without);
      assertThat(String.join("\n", protectedAnswers)).contains("429").contains("levee:");
    }
  }

  private static List<String> answers(ForkedApp.Builder builder, LocalHttpServer partner) {
    try (ForkedApp app = builder.start()) {
      return answers(app, partner);
    }
  }

  private static List<String> answers(ForkedApp app, LocalHttpServer partner) {
    AppClient client = new AppClient(app);
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      paths.add("/limited/page");
      paths.add("/http?url=" + AppClient.encode(partner.url("/quote")));
      paths.add("/jdbc?db=h2&pool=none&sql=" + AppClient.encode("SELECT 1"));
      paths.add("/jdbc?db=h2&pool=hikari&sql=" + AppClient.encode("SELECT 2"));
    }
    List<String> answers = new ArrayList<>();
    for (String path : paths) {
      HttpResponse<String> r = client.get(path);
      answers.add(path + " -> " + r.statusCode() + "\n" + withoutTimings(r.body()));
    }
    return answers;
  }

  /** Durations differ from run to run; everything else must not. */
  private static String withoutTimings(String body) {
    return body.lines().filter(l -> !l.startsWith("elapsedMs=")).collect(Collectors.joining("\n"));
  }
}
