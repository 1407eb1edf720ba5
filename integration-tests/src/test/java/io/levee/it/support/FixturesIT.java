package io.levee.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.jetty.JettyApp;
import io.levee.it.apps.tomcat.TomcatApp;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The test applications and the harness without the agent: if these fail, a failure elsewhere says
 * nothing about Levee.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FixturesIT {
  private final LocalHttpServer remote = LocalHttpServer.start();
  private ForkedApp tomcat;
  private ForkedApp jetty;

  @BeforeAll
  void start() {
    tomcat = ForkedApp.of(TomcatApp.class).name("fixtures-tomcat").start();
    jetty = ForkedApp.of(JettyApp.class).name("fixtures-jetty").start();
  }

  @AfterAll
  void stop() {
    Stream.of(tomcat, jetty).filter(a -> a != null).forEach(ForkedApp::close);
    remote.close();
  }

  List<ForkedApp> apps() {
    return List.of(tomcat, jetty);
  }

  @ParameterizedTest(autoCloseArguments = false)
  @MethodSource("apps")
  void servesWorkThroughTheFilter(ForkedApp app) {
    HttpResponse<String> r = new AppClient(app).get("/work/x?ms=5");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEqualTo("ok /work/x");
    assertThat(r.headers().firstValue("X-Filtered")).hasValue("yes");
    // the one request above, and only it: an app that recorded none, or each twice, would fail
    assertThat(new AppClient(app).get("/arrivals?prefix=/work/x").body().lines()).hasSize(1);
  }

  @ParameterizedTest(autoCloseArguments = false)
  @MethodSource("apps")
  void forwardsAndCompletesAsyncRequests(ForkedApp app) {
    AppClient client = new AppClient(app);
    assertThat(client.get("/forward/a").body()).isEqualTo("ok /fwd-target/a");
    assertThat(client.get("/async/a?ms=50").body()).isEqualTo("async done");
  }

  @ParameterizedTest(autoCloseArguments = false)
  @MethodSource("apps")
  void callsOutWithHttpUrlConnection(ForkedApp app) {
    AppClient client = new AppClient(app);
    int before = remote.received();
    Reply ok = Reply.parse(client.get("/http?url=" + AppClient.encode(remote.url("/a"))).body());
    remote.fail();
    Reply failed =
        Reply.parse(client.get("/http?url=" + AppClient.encode(remote.url("/b"))).body());
    remote.ok();
    assertThat(ok.get("status")).as(ok.raw()).isEqualTo("200");
    assertThat(ok.get("body")).isEqualTo("ok");
    assertThat(failed.get("status")).as(failed.raw()).isEqualTo("500");
    assertThat(remote.received() - before).isEqualTo(2);
  }

  @ParameterizedTest(autoCloseArguments = false)
  @MethodSource("apps")
  void keepsTheApplicationsOwnReadTimeout(ForkedApp app) {
    try (LocalHttpServer stalled = LocalHttpServer.start().stall()) {
      Reply r =
          Reply.parse(
              new AppClient(app)
                  .get("/http?readTimeout=300&url=" + AppClient.encode(stalled.url("/")))
                  .body());
      assertThat(r.get("class")).as(r.raw()).isEqualTo("java.net.SocketTimeoutException");
      assertThat(r.number("elapsedMs")).isBetween(250L, 5_000L);
    }
  }

  @ParameterizedTest(autoCloseArguments = false)
  @MethodSource("apps")
  void runsStatementsOnH2WithAndWithoutAPool(ForkedApp app) {
    runsStatements(app, "h2");
  }

  @Test
  void runsStatementsOnPostgresWithAndWithoutAPool() {
    Postgres.require();
    runsStatements(tomcat, "pg");
  }

  private static void runsStatements(ForkedApp app, String db) {
    AppClient client = new AppClient(app);
    for (String pool : List.of("none", "hikari")) {
      String jdbc = "/jdbc?db=" + db + "&pool=" + pool + "&sql=";
      Reply r = Reply.parse(client.get(jdbc + AppClient.encode("SELECT 40+2")).body());
      assertThat(r.get("value")).as(r.raw()).isEqualTo("42");
      Reply missing =
          Reply.parse(client.get(jdbc + AppClient.encode("SELECT * FROM missing_table")).body());
      assertThat(missing.get("sqlState")).as(missing.raw()).startsWith("42");
      // the concurrency tests rely on these running side by side
      long start = System.nanoTime();
      List<Reply> sleeps =
          client.concurrently(4, jdbc + AppClient.encode("SELECT pg_sleep(1)")).stream()
              .map(s -> Reply.parse(s.body()))
              .toList();
      assertThat(sleeps).allSatisfy(s -> assertThat(s.ok()).as(s.raw()).isTrue());
      assertThat(System.nanoTime() - start).isLessThan(3_000_000_000L);
    }
  }

  @ParameterizedTest(autoCloseArguments = false)
  @MethodSource("apps")
  void usesItsOwnSnakeYamlAndByteBuddy(ForkedApp app) {
    Reply r = Reply.parse(new AppClient(app).get("/libs").body());
    assertThat(r.get("yaml")).as(r.raw()).isEqualTo("{name=app, items=[1, 2]}");
    assertThat(r.get("yamlJar")).contains("snakeyaml-1.33");
    assertThat(r.get("bytebuddy")).isEqualTo("made by the app's byte buddy");
  }

  @Test
  void startsOnJdk25() {
    try (ForkedApp app =
        ForkedApp.of(TomcatApp.class).jdk(Jdk.require(25)).name("fixtures-jdk25").start()) {
      assertThat(new AppClient(app).get("/health").body()).isEqualTo("ok /health");
      assertThat(Reply.parse(new AppClient(app).get("/libs").body()).get("bytebuddy"))
          .isEqualTo("made by the app's byte buddy");
    }
  }
}
