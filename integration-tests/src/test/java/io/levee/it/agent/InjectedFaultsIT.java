package io.levee.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.RulesFile;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * SPEC §1 "the agent fails open, always", on a real application, at every point where the agent's
 * code runs inside an application's call (the {@code Faults} points of the bootstrap: advice enter
 * and exit, the bridge's helpers, matching, keys, the engine's decision and outcome). One JVM in
 * fault mode arms the points one at a time through the application's {@code /faults} endpoint and
 * replays the same servlet (sync and async), HttpURLConnection and JDBC calls, to admitted and to
 * blocked resources, under each.
 *
 * <p>Each answer must be the one the application gives without the agent (the fault came before the
 * decision took effect, the call ran unprotected) or the one the working agent gives (the fault
 * came after it: a block already answered stays answered), never a third. The dispatcher's point,
 * the old {@code -Dlevee.inject-faults=true}, must give exactly the answers without the agent.
 * Every point must have thrown (the agent's /status counts), each is logged a few times at most
 * however often it threw, and no permit is left in flight.
 */
class InjectedFaultsIT {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: limited-pages
          match: { servlet: { paths: ["/limited/**"] } }
          rate-limit: { rate: 1/h, burst: 1 }
        - name: tenant-pages
          match: { servlet: { paths: ["/open/**"] } }
          rate-limit: { rate: 1000/s, burst: 1000, per: "header:X-Tenant-ID" }
          concurrency: { max: 100 }
        - name: pages
          match: { servlet: { paths: ["/async/**", "/http", "/jdbc"] } }
          concurrency: { max: 100 }
        - name: limited-partner
          match: { http: { urls: ["http://127.0.0.1:*/limited"] } }
          rate-limit: { rate: 1/h, burst: 1 }
        - name: partner
          match: { http: { urls: ["http://127.0.0.1:*/**"] } }
          concurrency: { max: 100 }
        - name: connections
          match: { jdbc: { urls: ["jdbc:h2:**"], operations: [CONNECT] } }
          concurrency: { max: 100 }
        - name: limited-queries
          match: { jdbc: { sql: "limited" } }
          rate-limit: { rate: 1/h, burst: 1 }
        - name: queries
          match: { jdbc: { urls: ["jdbc:h2:**"] } }
          concurrency: { max: 100 }
      """;

  private static final List<String> POINTS =
      List.of(
          "dispatcher",
          "servlet-enter",
          "servlet-exit",
          "servlet-path",
          "servlet-async",
          "http-enter",
          "http-exit",
          "http-headers",
          "http-disconnect",
          "jdbc-connect-enter",
          "jdbc-connect-exit",
          "jdbc-execute-enter",
          "jdbc-execute-exit",
          "jdbc-state",
          "call-depth",
          "weak-map",
          "bridge",
          "match",
          "keys",
          "decide",
          "complete");

  @Test
  void answersAsWithoutTheAgentOrAsProtectedAtEveryFaultPoint() throws Exception {
    Path rules = RulesFile.write("injected-faults", RULES);
    int statusPort = freePort();
    try (LocalHttpServer partner = LocalHttpServer.start().ok()) {
      List<String> without;
      try (ForkedApp app = ForkedApp.of(TomcatApp.class).name("faults-no-agent").start()) {
        without = answers(new AppClient(app), partner);
      }
      try (ForkedApp app =
          ForkedApp.of(TomcatApp.class)
              .agent("rules=" + rules.toAbsolutePath() + ",http=127.0.0.1:" + statusPort)
              .systemProperty("levee.inject-faults", "none")
              .name("faults-injected")
              .start()) {
        AppClient client = new AppClient(app);
        arm(client, "none");
        answers(client, partner); // takes the one token of every limited bucket
        List<String> protectedAnswers = answers(client, partner);
        // The rules bite, so neither comparison below can pass by accident.
        assertThat(protectedAnswers).isNotEqualTo(without);
        assertThat(String.join("\n", protectedAnswers)).contains("-> 429").contains("levee:");

        Map<String, List<String>> faulty = new LinkedHashMap<>();
        for (String point : POINTS) {
          arm(client, point);
          faulty.put(point, answers(client, partner));
        }
        arm(client, "none");
        String status = get(statusPort, "/status");
        String log = String.join("\n", app.leveeLines());

        assertThat(faulty.get("dispatcher")).isEqualTo(without);
        for (String point : POINTS) {
          List<String> answers = faulty.get(point);
          for (int i = 0; i < answers.size(); i++) {
            assertThat(answers.get(i))
                .as("answer %d with %s armed", i, point)
                .isIn(without.get(i), protectedAnswers.get(i));
          }
          long thrown = thrown(status, point);
          assertThat(thrown).as("faults thrown at %s", point).isPositive();
          long logged = log.lines().filter(l -> l.contains("fault injected at " + point)).count();
          assertThat(logged).as("log lines for %s (%d thrown)", point, thrown).isBetween(1L, 6L);
        }
        // An async request's permit goes back at onComplete, which may follow its answer.
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!inFlight(status).stream().allMatch(n -> n == 0) && System.nanoTime() < deadline) {
          Thread.sleep(100);
          status = get(statusPort, "/status");
        }
        assertThat(inFlight(status)).as(status).containsOnly(0L);
      }
    }
  }

  private static void arm(AppClient client, String point) {
    assertThat(client.get("/faults?point=" + point).body()).isEqualTo("armed " + point);
  }

  private static List<String> answers(AppClient client, LocalHttpServer partner) {
    List<String> paths = new ArrayList<>();
    paths.add("/limited/page");
    paths.add("/open/page");
    paths.add("/async/page");
    paths.add("/http?disconnect=true&url=" + AppClient.encode(partner.url("/quote")));
    paths.add("/http?url=" + AppClient.encode(partner.url("/limited")));
    paths.add("/jdbc?db=h2&pool=none&sql=" + AppClient.encode("SELECT 1"));
    paths.add("/jdbc?db=h2&pool=hikari&sql=" + AppClient.encode("SELECT 2"));
    paths.add("/jdbc?db=h2&pool=hikari&sql=" + AppClient.encode("SELECT 'limited'"));
    List<String> answers = new ArrayList<>();
    for (String path : paths) {
      HttpResponse<String> r = client.get(path, "X-Tenant-ID", "acme");
      answers.add(path + " -> " + r.statusCode() + "\n" + withoutTimings(r.body()));
    }
    return answers;
  }

  /** Durations differ from run to run; everything else must not. */
  private static String withoutTimings(String body) {
    return body.lines().filter(l -> !l.startsWith("elapsedMs=")).collect(Collectors.joining("\n"));
  }

  private static long thrown(String status, String point) {
    String faults = status.substring(status.indexOf("\"faults\":"));
    Matcher m = Pattern.compile("\"" + Pattern.quote(point) + "\":(\\d+)").matcher(faults);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  private static List<Long> inFlight(String status) {
    List<Long> values = new ArrayList<>();
    Matcher m = Pattern.compile("\"inFlight\":(\\d+)").matcher(status);
    while (m.find()) {
      values.add(Long.parseLong(m.group(1)));
    }
    assertThat(values).as(status).isNotEmpty();
    return values;
  }

  private static String get(int port, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
