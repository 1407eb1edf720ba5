package io.levee.it.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Spring Boot 2.7 (javax, Tomcat 9, Hibernate 5.6) and Spring Boot 3 (jakarta, Tomcat 10.1,
 * Hibernate 6) applications, built by the corpus-apps modules as executable jars, run each {@link
 * Way} with {@code java -jar}: Boot's nested-jar class loader, Spring MVC, Spring Data JPA over
 * HikariCP and H2, and RestTemplate over HttpURLConnection, all with the agent in. The same
 * requests must get the same answers (status, headers, body), and the logs must not differ either.
 * The two applications run side by side: each on ports of its own, with an in-memory database and
 * files of its own.
 */
class SpringBootCorpusIT {
  /** In this order: reads, a miss, a write the next read sees, and calls through RestTemplate. */
  private static final List<String> REQUESTS =
      List.of(
          "GET /greetings",
          "GET /greetings/1",
          "GET /greetings/99",
          "POST /greetings?name=Linus",
          "GET /greetings",
          "GET /relay/2",
          "GET /relay/99");

  private static final String ADA = "{\"id\":1,\"name\":\"Ada\"}";
  private static final String GRACE = "{\"id\":2,\"name\":\"Grace\"}";
  private static final String LINUS = "{\"id\":3,\"name\":\"Linus\"}";

  /** The answers without the agent, so that the ways are compared on a working application. */
  private static final List<String> EXPECTED =
      List.of(
          "GET /greetings -> 200 application/json [" + ADA + "," + GRACE + "]",
          "GET /greetings/1 -> 200 application/json " + ADA,
          "GET /greetings/99 -> 404 - ",
          "POST /greetings?name=Linus -> 201 application/json " + LINUS,
          "GET /greetings -> 200 application/json [" + ADA + "," + GRACE + "," + LINUS + "]",
          "GET /relay/2 -> 200 text/plain;charset=UTF-8 relayed 200 " + GRACE,
          "GET /relay/99 -> 200 text/plain;charset=UTF-8 relayed 404");

  /**
   * The resources of the monitor rules that must have let calls through in the monitor run, as its
   * {@code /status} shows: the pages, and the method resources the start and the requests go
   * through, by package, interface and annotation.
   */
  private static final String[] DECIDING = {
    "every-page",
    "containers",
    "servlet-api",
    "spring",
    "boot-controllers",
    "spring-repositories",
    "spring-stereotypes",
    "entity-managers",
    "orms",
    "jdbc-pools",
    "jdbc-drivers"
  };

  /** The kinds of {@link #DECIDING} other than {@code method}. */
  private static final Map<String, String> KINDS = Map.of("every-page", "servlet");

  /** The monitor run's {@code /status}, by resource. */
  private Map<String, AgentStatus.Row> decided = Map.of();

  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void springBoot2AnswersAlikeEachWay() {
    runEachWay("spring-boot-2", "javax");
  }

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void springBoot3AnswersAlikeEachWay() {
    runEachWay("spring-boot-3", "jakarta");
  }

  /** {@code servletPackage}: the Servlet API's, which the agent weaves in {@code HttpServlet}. */
  private void runEachWay(String app, String servletPackage) {
    Path jar =
        TestPaths.root()
            .resolve("integration-tests/corpus-apps/" + app + "/target/" + app + "-app.jar");
    assertThat(jar).as("built by the %s module; run mvn verify", app).exists();
    Map<Way, BootRun> runs = new EnumMap<>(Way.class);
    for (Way way : Way.values()) {
      runs.put(way, run(jar, app, way));
    }

    assertThat(runs.get(Way.PLAIN).answers()).isEqualTo(EXPECTED);
    Transparency.assertSame(app, runs);
    assertThat(Way.MONITOR.agentLogText(app))
        .as("the monitor run went through the agent's hooks")
        .contains("instrumented " + servletPackage + ".servlet.http.HttpServlet")
        .contains("instrumented org.springframework.web.filter.OncePerRequestFilter")
        .contains("instrumented com.zaxxer.hikari.pool.HikariProxyPreparedStatement")
        .contains("instrumented org.h2.jdbc.JdbcPreparedStatement")
        .contains("instrumented sun.net.www.protocol.http.HttpURLConnection");
    assertThat(Transparency.faultsTripped(app)).as("the forced faults tripped").isTrue();
    // The method resources wove Spring, Tomcat, Hibernate and HikariCP by package; every servlet
    // and filter, Spring Data's repositories and JPA's entity manager through their interfaces,
    // JDK proxies included (the application's repository, Spring's shared entity manager); Spring
    // Data's SimpleJpaRepository and the application's controller through their annotations.
    MethodResources.assertWoven(
        app,
        300,
        "org\\.springframework\\.web\\.servlet\\.DispatcherServlet",
        "org\\.apache\\.catalina\\.core\\.StandardWrapperValve",
        "org\\.hibernate\\.internal\\.SessionImpl",
        "com\\.zaxxer\\.hikari\\.pool\\.HikariPool",
        "org\\.example\\.greetings\\.\\$Proxy\\d+",
        "jdk\\.proxy\\d+\\.\\$Proxy\\d+",
        "org\\.springframework\\.data\\.jpa\\.repository\\.support\\.SimpleJpaRepository",
        "org\\.example\\.greetings\\.GreetingController");
    System.out.printf("corpus %s: calls the monitor run let through: %s%n", app, decided);
    for (String resource : DECIDING) {
      assertThat(decided.get(resource))
          .as("%s: %s in the monitor run's /status %s", app, resource, decided)
          .isNotNull()
          .satisfies(r -> assertThat(r.passed()).isPositive())
          .satisfies(r -> assertThat(r.kind()).isEqualTo(KINDS.getOrDefault(resource, "method")));
    }
  }

  private BootRun run(Path jar, String app, Way way) {
    // The monitor run serves the agent's /status, read once the requests are answered.
    int statusPort = way == Way.MONITOR ? AgentStatus.freePort() : -1;
    List<String> agentOptions =
        way == Way.MONITOR ? List.of(AgentStatus.option(statusPort)) : List.of();
    try (BootApp boot = BootApp.start(jar, app, way, agentOptions)) {
      List<String> answers = new ArrayList<>();
      List<String> headers = new ArrayList<>();
      for (String request : REQUESTS) {
        HttpResponse<String> response = send(request, boot.port());
        answers.add(
            request
                + " -> "
                + response.statusCode()
                + " "
                + response.headers().firstValue("Content-Type").orElse("-")
                + " "
                + response.body());
        headers.add(request + " -> " + headers(response));
      }
      if (way == Way.MONITOR) {
        decided = AgentStatus.read(statusPort);
      }
      int exit = boot.stop();
      return BootRun.of(
          answers,
          headers,
          boot.stdoutBeforeStop(),
          boot.stdoutFromStop(),
          boot.stderr(),
          boot.port(),
          exit);
    }
  }

  /** Every header but {@code Date}, whose value is the clock's, in the client's (sorted) order. */
  private static String headers(HttpResponse<String> response) {
    return response.headers().map().entrySet().stream()
        .filter(h -> !h.getKey().equalsIgnoreCase("date"))
        .map(h -> h.getKey().toLowerCase() + "=" + h.getValue())
        .collect(Collectors.joining(" "));
  }

  private HttpResponse<String> send(String request, int port) {
    String[] methodAndPath = request.split(" ", 2);
    HttpRequest http =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + methodAndPath[1]))
            .timeout(Duration.ofSeconds(30))
            .method(methodAndPath[0], HttpRequest.BodyPublishers.noBody())
            .build();
    try {
      return client.send(http, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(request + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
