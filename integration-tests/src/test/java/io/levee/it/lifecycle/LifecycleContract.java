package io.levee.it.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.AppClient;
import io.levee.it.support.ForkedApp;
import io.levee.it.support.Jdk;
import io.levee.it.support.LocalHttpServer;
import io.levee.it.support.Reply;
import io.levee.it.support.RulesFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The life of an agent attached at run time (SPEC §3), on one application started without it and
 * under a steady stream of requests throughout: attach, status and list, reloads (stricter,
 * unrelated, invalid), detach with the original bytecode back and the agent's threads gone, and
 * attaching again. The commands run as a user runs them: {@code java -jar levee-agent.jar} in a JVM
 * of their own. A test-only agent ({@link BytecodeProbe}) reads the bytecode the application runs,
 * before the attach, after it and after the detach.
 *
 * <p>The application is shared, to keep the run short, but no test relies on another having run:
 * each first brings the agent to the state it starts from (out, or in with the base rules and,
 * where it reads them, fresh counters), so one failure does not cascade and any test runs alone.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class LifecycleContract {
  private static final String RULES =
      """
      version: 1
      settings: { reload: 500ms }
      resources:
        - name: steady
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          concurrency: { max: 200 }
        - name: limited
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          rate-limit: { rate: 1/s, burst: 1 }
        - name: flaky
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          circuit-breaker: { failure-rate: 50%%, minimum-calls: 5, window: %s, open-for: 60s }
        - name: tightened
          match: { http: { urls: ["http://127.0.0.1:%d/**"] } }
          rate-limit: { rate: %s, burst: %d }
      """;

  private final LocalHttpServer steady = LocalHttpServer.start();
  private final LocalHttpServer limited = LocalHttpServer.start();
  private final LocalHttpServer flaky = LocalHttpServer.start();
  private final LocalHttpServer tightened = LocalHttpServer.start();
  private Jdk jdk;
  private ForkedApp app;
  private AppClient client;
  private SteadyTraffic traffic;
  private Path rules;
  private String pid;
  private List<String> original;

  /** Whether the agent is in the application: set by every attach and detach that succeeded. */
  private boolean agentIn;

  protected abstract int jdk();

  /**
   * The application: a Tomcat (javax) or Jetty (jakarta) main class of {@code io.levee.it.apps}.
   */
  protected abstract Class<?> app();

  /** The servlet API's {@code HttpServlet} the application's servlets extend. */
  protected abstract String httpServlet();

  /**
   * Classes the agent instruments, loaded before it arrives: the JDK's, a driver's, a container's.
   */
  private List<String> instrumented() {
    return List.of(
        "sun.net.www.protocol.http.HttpURLConnection",
        "org.h2.jdbc.JdbcPreparedStatement",
        httpServlet());
  }

  @BeforeAll
  void start() throws Exception {
    jdk = Jdk.require(jdk());
    String name = "lifecycle-" + app().getSimpleName() + "-jdk" + jdk();
    rules = RulesFile.write(name, baseRules());
    app = ForkedApp.of(app()).jdk(jdk).name(name).start();
    pid = app.pid();
    client = new AppClient(app);
    assertThat(
            Reply.parse(client.get("/jdbc?db=h2&sql=" + AppClient.encode("select 1")).body()).ok())
        .isTrue();
    traffic = new SteadyTraffic(new AppClient(app), steady.url("/s"));
    original = bytecode();
  }

  @BeforeEach
  void partnersAnswer() {
    flaky.ok();
  }

  @AfterAll
  void stop() {
    if (traffic != null) {
      traffic.close();
    }
    if (app != null) {
      app.close();
    }
    Stream.of(steady, limited, flaky, tightened).forEach(LocalHttpServer::close);
  }

  @Test
  void attachEnforcesTheRulesOnceTheCommandReturnsAndFailsNoRequest() throws Exception {
    agentOut();
    edit(baseRules());
    assertThat(blocked(limited)).isFalse();

    Cli.Result attach = attach();
    long returned = System.nanoTime();

    assertThat(attach.exit()).as("%s", attach).isZero();
    assertThat(attach.out()).startsWith("Levee started: 4 resources from " + rules);
    assertThat(eventually(2_000, () -> blocked(limited))).as("limited blocked within 2 s").isTrue();
    assertThat((System.nanoTime() - returned) / 1_000_000).isLessThan(2_000);
    assertThat(bytecode()).as("instrumented bytecode").doesNotContainAnyElementsOf(original);
    assertThat(Probe.look(pid, instrumented()).threads()).contains("levee-reload");
    assertNoRequestFailed();
  }

  @Test
  void statusShowsEachResourceWithItsCountsAndListShowsLeveeIsIn() throws Exception {
    agentInWithBaseRules();
    freshBreaker();
    assertBlocked(limited);
    int sent = traffic.sent();
    assertThat(eventually(5_000, () -> traffic.sent() > sent + 1)).as("steady traffic").isTrue();

    Cli.Result status = Cli.run(jdk, "status", pid);

    assertThat(status.exit()).as("%s", status).isZero();
    assertThat(status.out().lines())
        .first()
        .isEqualTo("rules: " + rules + " (4 resources, reload 500ms)");
    assertThat(status.out())
        .containsPattern("RESOURCE +KIND +MODE +BREAKER +LIMIT +IN-FLIGHT +PASSED +BLOCKED")
        .containsPattern("steady +http +enforce +- +200 +\\d+ +[1-9]\\d* +0")
        .containsPattern("limited +http +enforce +- +- +0 +[1-9]\\d* +rate-limit=[1-9]\\d*")
        .containsPattern("flaky +http +enforce +closed +- +0 +0 +0");

    Cli.Result list = Cli.run(jdk, "list");
    assertThat(list.exit()).as("%s", list).isZero();
    assertThat(list.out()).containsPattern("(?m)^" + pid + " +running +" + app().getName());
  }

  @Test
  void aStricterEditTakesEffectWithinTheReloadInterval() throws Exception {
    agentInWithBaseRules();
    assertThat(blocked(tightened)).isFalse();

    edit(rules("1/m", 1));

    assertThat(eventually(1_500, () -> blocked(tightened))).isTrue();
    assertNoRequestFailed();
  }

  @Test
  void anOpenBreakerStaysOpenAcrossAnUnrelatedChange() throws Exception {
    agentInWithBaseRules();
    flaky.fail();
    Reply failing = call(flaky, 6);
    assertThat(failing.number("leveeExceptions")).as("%s", failing).isPositive();
    assertThat(Cli.run(jdk, "status", pid).out()).containsPattern("flaky +http +enforce +open");

    reloadTo(rules("2/m", 1));

    flaky.ok();
    assertThat(Cli.run(jdk, "status", pid).out()).containsPattern("flaky +http +enforce +open");
    assertThat(call(flaky, 1).get("message")).startsWith("levee: flaky");
    assertNoRequestFailed();
  }

  @Test
  void anInvalidEditIsRejectedAndTheRulesInForceStay() throws Exception {
    agentInWithBaseRules();
    reloadTo(rules("2/m", 1));
    assertBlocked(tightened);
    String rejected =
        "[levee] WARN rules file " + rules + " rejected, keeping the rules in force: ";
    int rejectedBefore = countOf(app.stderr(), rejected);

    edit(rules("2/m", 1).replace("concurrency:", "concurency:"));

    assertThat(eventually(3_000, () -> countOf(app.stderr(), rejected) > rejectedBefore)).isTrue();
    assertThat(app.stderr()).contains("unknown key `concurency`; did you mean `concurrency`?");
    assertBlocked(limited);
    assertBlocked(tightened);

    Cli.Result reload = Cli.run(jdk, "reload", pid);
    assertThat(reload.exit()).as("%s", reload).isEqualTo(1);
    assertThat(reload.err()).contains(rules + ":").contains("did you mean `concurrency`?");
    assertNoRequestFailed();
  }

  @Test
  void detachRestoresTheOriginalBytecodeStopsTheThreadsAndBlocksNothing() throws Exception {
    agentInWithBaseRules();
    reloadTo(rules("1/m", 1));
    assertBlocked(limited);
    assertBlocked(tightened);

    Cli.Result detach = detach();

    assertThat(detach.exit()).as("%s", detach).isZero();
    assertThat(bytecode()).as("bytecode after detach").isEqualTo(original);
    // The command box's thread answers the detach and ends right after it: give it a moment.
    List<String> threads = Probe.look(pid, instrumented()).threads();
    for (int i = 0; i < 50 && threads.stream().anyMatch(n -> n.startsWith("levee-")); i++) {
      Thread.sleep(100);
      threads = Probe.look(pid, instrumented()).threads();
    }
    assertThat(threads).noneMatch(name -> name.startsWith("levee-"));
    assertThat(call(limited, 5).number("leveeExceptions")).isZero();
    assertThat(call(tightened, 5).number("leveeExceptions")).isZero();
    assertThat(Cli.run(jdk, "list").out()).containsPattern("(?m)^" + pid + " +detached ");
    Cli.Result status = Cli.run(jdk, "status", pid);
    assertThat(status.exit()).isEqualTo(1);
    assertThat(status.err()).contains("Levee was detached from process " + pid);
    assertNoRequestFailed();
  }

  @Test
  void attachingAgainStartsAfreshAndASecondAttachOnlyReloads() throws Exception {
    agentInWithBaseRules();
    Cli.Result detach = detach();
    assertThat(detach.exit()).as("%s", detach).isZero();
    assertThat(blocked(limited)).isFalse();

    Cli.Result again = attach();
    assertThat(again.exit()).as("%s", again).isZero();
    assertThat(eventually(2_000, () -> blocked(limited))).isTrue();
    List<String> instrumented = bytecode();
    assertThat(instrumented).doesNotContainAnyElementsOf(original);

    Cli.Result twice = attach();
    assertThat(twice.exit()).as("%s", twice).isZero();
    assertThat(twice.out())
        .contains("Levee was already running in this JVM: reloading its rules")
        .contains("rules reloaded from " + rules + ": 4 resources");
    assertThat(bytecode()).as("never instrumented twice").isEqualTo(instrumented);
    assertNoRequestFailed();
    assertThat(traffic.sent()).isGreaterThan(50);
  }

  /** Where a test that attaches starts from: the agent out of the application. */
  private void agentOut() {
    if (agentIn) {
      Cli.Result detach = detach();
      assertThat(detach.exit()).as("%s", detach).isZero();
    }
  }

  /** Where most tests start from: the agent in, with the base rules in force. */
  private void agentInWithBaseRules() throws Exception {
    if (!agentIn) {
      edit(baseRules());
      Cli.Result attach = attach();
      assertThat(attach.exit()).as("%s", attach).isZero();
    } else if (!Files.readString(rules).equals(baseRules())) {
      reloadTo(baseRules());
    }
  }

  /**
   * The breaker {@code flaky} new, with no call counted: a resource whose rule changes starts
   * afresh (docs/operations.md, Hot reload), so change its window and change it back.
   */
  private void freshBreaker() throws Exception {
    reloadTo(
        RULES.formatted(
            steady.port(), limited.port(), flaky.port(), "9s", tightened.port(), "1000/s", 1000));
    reloadTo(baseRules());
  }

  private Cli.Result attach() {
    Cli.Result attach = Cli.run(jdk, "attach", pid, "--rules", rules.toString(), "--force");
    agentIn |= attach.exit() == 0;
    return attach;
  }

  private Cli.Result detach() {
    Cli.Result detach = Cli.run(jdk, "detach", pid);
    agentIn &= detach.exit() != 0;
    return detach;
  }

  /** Edits the rules file and waits until the agent's watcher has applied it. */
  private void reloadTo(String yaml) throws Exception {
    String applied = "rules reloaded from " + rules + ": 4";
    int before = countOf(app.stderr(), applied);
    edit(yaml);
    assertThat(eventually(3_000, () -> countOf(app.stderr(), applied) > before))
        .as("reloaded")
        .isTrue();
  }

  private String baseRules() {
    return rules("1000/s", 1000);
  }

  private String rules(String tightenedRate, int tightenedBurst) {
    return RULES.formatted(
        steady.port(),
        limited.port(),
        flaky.port(),
        "10s",
        tightened.port(),
        tightenedRate,
        tightenedBurst);
  }

  /** Replaces the rules file in one step, as an editor that saves atomically does. */
  private void edit(String yaml) throws Exception {
    Path aside = rules.resolveSibling(rules.getFileName() + ".new");
    Files.writeString(aside, yaml);
    Files.move(aside, rules, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private List<String> bytecode() throws Exception {
    return List.copyOf(Probe.look(pid, instrumented()).bytecode().values());
  }

  private Reply call(LocalHttpServer server, int repeat) {
    String url = AppClient.encode(server.url("/x"));
    return Reply.parse(client.get("/http?repeat=" + repeat + "&url=" + url).body());
  }

  /**
   * Whether Levee blocks calls to {@code server} now: of three calls in a row, one at least fails
   * fast with {@code levee:} (a rate limit of one call a second may let the first through).
   */
  private boolean blocked(LocalHttpServer server) {
    return call(server, 3).number("leveeExceptions") > 0;
  }

  private void assertBlocked(LocalHttpServer server) {
    Reply reply = call(server, 3);
    assertThat(reply.number("leveeExceptions")).as("%s", reply).isPositive();
  }

  private void assertNoRequestFailed() {
    assertThat(traffic.failures()).as("requests that failed").isEmpty();
  }

  private static int countOf(String text, String part) {
    return text.split(Pattern.quote(part), -1).length - 1;
  }

  private static boolean eventually(long millis, BooleanSupplier condition) throws Exception {
    long deadline = System.nanoTime() + millis * 1_000_000;
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(50);
    }
    return condition.getAsBoolean();
  }
}
