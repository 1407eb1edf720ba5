package io.levee.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.apps.tomcat.TomcatApp;
import io.levee.it.corpus.containers.ContainerProcess;
import io.levee.it.corpus.containers.Scratch;
import io.levee.it.corpus.containers.Tomcat;
import io.levee.it.lifecycle.Cli;
import io.levee.it.support.Jdk;
import io.levee.it.support.RulesFile;
import io.levee.it.support.StatusRows;
import io.levee.it.support.TestPaths;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The deployment recipes of the manual (docs/operations.md, "Deployment recipes"), taken from its
 * text ({@link DocRecipe}) and run for real with the packaged agent: Tomcat's {@code setenv.sh}
 * under the Tomcat distribution's own {@code catalina.sh}, a fat jar's start script on a Spring
 * Boot executable jar, a systemd unit's {@code ExecStart=} with its {@code Environment=} and no
 * shell, and a container image's {@code JAVA_TOOL_OPTIONS} with its {@code CMD}. Each one must
 * start the agent (its start-up line) and apply the rules: a rate-limited path answers 503 past its
 * burst, and the endpoint the recipe asks for counts it. The recipes' paths are replaced by the
 * test's own; the rules are the test's, the recipes only say where they are.
 */
class DeploymentRecipesIT {
  private static final String RULES =
      """
      version: 1
      resources:
        - name: recipes
          match:
            servlet: { paths: ["/api/**", "/shop/api/**", "/greetings/{id}"] }
          rate-limit: { rate: 1/m, burst: 2 }
          on-block: { status: 503 }
      """;

  private static final Path BOOT_JAR =
      TestPaths.root()
          .resolve("integration-tests/corpus-apps/spring-boot-3/target/spring-boot-3-app.jar");

  /** The PATH systemd gives a service (systemd 252 on Debian). */
  private static final String SYSTEMD_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin";

  /**
   * The JVM of the fat jar only: the C1 compiler and the serial collector, which halve Spring
   * Boot's start on a busy 2-core machine; the recipe itself is left as the manual shows it.
   */
  private static final String QUICK_START = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static Path rules;
  private static Path shopJar;
  private final Jdk jdk = Jdk.current();

  @BeforeAll
  static void rulesAndShop() throws IOException {
    rules = RulesFile.write("recipes", RULES).toAbsolutePath();
    shopJar = shopJar(Files.createTempDirectory(TestPaths.workDir(), "shop-"));
  }

  @Test
  void tomcatReadsTheAgentFromSetenvShAndItsStopCommandLeavesItOut() throws Exception {
    Path home = Tomcat.home("10.1.");
    Path base = Files.createTempDirectory(TestPaths.workDir(), "tomcat-");
    Scratch.copyTree(home.resolve("conf"), base.resolve("conf"));
    for (String dir : List.of("logs", "temp", "work", "webapps/shop/api")) {
      Files.createDirectories(base.resolve(dir));
    }
    Files.writeString(base.resolve("webapps/shop/index.html"), "<p>shop</p>\n");
    Files.writeString(base.resolve("webapps/shop/api/orders.json"), "[]\n");
    int port = StatusRows.freePort();
    Tomcat.listenOn(base.resolve("conf/server.xml"), port, StatusRows.freePort());
    int http = StatusRows.freePort();
    DocRecipe.named("tomcat-setenv")
        .with("/opt/levee/levee-agent.jar", TestPaths.agentJar())
        .with("/etc/levee/rules.yaml", rules)
        .with(":9464", ":" + http)
        .writeTo(base.resolve("bin/setenv.sh"));
    Map<String, String> env =
        Map.of(
            "CATALINA_HOME", home.toString(),
            "CATALINA_BASE", base.toString(),
            "JAVA_HOME", jdk.home().toString());
    String catalina = home.resolve("bin/catalina.sh").toString();

    try (ContainerProcess tomcat =
        ContainerProcess.start(
            "tomcat with setenv.sh",
            List.of("/bin/sh", catalina, "run"),
            env,
            base,
            base.resolve("logs/console.out"),
            port,
            "/shop/")) {
      assertProtects(tomcat, port, "/shop/api/orders.json", http);
      assertThat(tomcat.output())
          .as("Tomcat's own log names the option")
          .contains("Command line argument: -javaagent:" + TestPaths.agentJar() + "=rules=");

      Cli.Result stop = Cli.exec(List.of("/bin/sh", catalina, "stop"), env);

      assertThat(stop.exit()).as("%s", stop).isZero();
      assertThat(stop.out() + stop.err())
          .as("CATALINA_OPTS reaches `catalina.sh run` and `start` only")
          .doesNotContain("[levee]");
      assertThat(tomcat.awaitExit()).isZero();
    }
    try (Stream<Path> left = Files.list(base.resolve("temp"))) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .as("what the agent kept in the JVM's temporary directory is gone after a clean stop")
          .noneMatch(name -> name.startsWith("levee"));
    }
  }

  @Test
  void aFatJarsStartScriptPutsTheAgentBeforeDashJar() throws Exception {
    assertThat(BOOT_JAR).as("built by the corpus-apps module; run mvn verify").exists();
    Path dir = Files.createTempDirectory(TestPaths.workDir(), "fat-jar-");
    int port = StatusRows.freePort();
    int http = StatusRows.freePort();
    Path script =
        DocRecipe.named("start-script")
            .with("/opt/levee/levee-agent.jar", TestPaths.agentJar())
            .with("/etc/levee/rules.yaml", rules)
            .with("/opt/shop/shop.jar", BOOT_JAR)
            .with(":9464", ":" + http)
            .writeTo(dir.resolve("bin/start.sh"));

    try (ContainerProcess boot =
        ContainerProcess.start(
            "spring boot with start.sh",
            List.of("/bin/sh", script.toString(), "--server.port=" + port),
            Map.of("PATH", onPath(jdk), "JDK_JAVA_OPTIONS", QUICK_START),
            dir,
            dir.resolve("console.out"),
            port,
            "/greetings")) {
      assertProtects(boot, port, "/greetings/1", http);
      assertThat(StatusRows.metrics(http))
          .contains(
              "levee_blocked_total{kind=\"servlet\",mode=\"enforce\",reason=\"rate-limit\","
                  + "resource=\"recipes\"} 1\n");
    }
  }

  @Test
  void theSystemdUnitPassesSystemdAnalyzeVerify() throws Exception {
    Path analyze = Paths.get("/usr/bin/systemd-analyze");
    Assumptions.assumeTrue(
        Files.isExecutable(analyze),
        "no /usr/bin/systemd-analyze (Debian's systemd package): the unit is not verified");
    Path dir = Files.createTempDirectory(TestPaths.workDir(), "systemd-");
    Path unit =
        systemdUnit(StatusRows.freePort(), StatusRows.freePort())
            .writeTo(dir.resolve("shop.service"));

    Cli.Result verify = Cli.exec(List.of(analyze.toString(), "verify", unit.toString()), Map.of());

    assertThat(verify.exit()).as("%s", verify).isZero();
    assertThat(verify.out() + verify.err()).as("%s", verify).isEmpty();
  }

  @Test
  void theSystemdUnitsExecStartRunsWithItsEnvironmentAndNoShell() throws Exception {
    Path dir = Files.createTempDirectory(TestPaths.workDir(), "systemd-");
    int port = StatusRows.freePort();
    int http = StatusRows.freePort();
    SystemdUnit unit = SystemdUnit.parse(systemdUnit(port, http).text());
    Map<String, String> env = new java.util.HashMap<>(unit.environment());
    env.put("PATH", SYSTEMD_PATH);

    try (ContainerProcess service =
        ContainerProcess.start(
            "systemd ExecStart",
            unit.execStart(),
            name -> true,
            env,
            dir,
            dir.resolve("console.out"),
            port,
            "/ready")) {
      assertProtects(service, port, "/api/orders", http);
      // SIGTERM as systemd sends it; Process.destroy would also close the application's stdin,
      // which this test application takes as its cue to exit with 0.
      ProcessHandle.of(service.pid()).orElseThrow().destroy();
      assertThat(service.awaitExit())
          .as("a JVM ends with 128 + 15 on SIGTERM, hence SuccessExitStatus=143")
          .isEqualTo(143);
    }
  }

  @Test
  void theImagesJavaToolOptionsReachTheApplicationAndEveryOtherJvm() throws Exception {
    DocRecipe dockerfile = DocRecipe.named("container-image");
    Path dir = Files.createTempDirectory(TestPaths.workDir(), "image-");
    int port = StatusRows.freePort();
    int http = StatusRows.freePort();
    String options =
        new DocRecipe("ENV", only(dockerfile, "(?m)^ENV JAVA_TOOL_OPTIONS=\"([^\"]*)\"$"))
            .with("/opt/levee/levee-agent.jar", TestPaths.agentJar())
            .with("/etc/levee/rules.yaml", rules)
            .with(":9464", ":" + http)
            .text();
    List<String> cmd =
        Arrays.stream(only(dockerfile, "(?m)^CMD \\[(.*)]$").split(","))
            .map(word -> word.strip().replaceAll("^\"|\"$", ""))
            .collect(Collectors.toList());
    assertThat(cmd).containsExactly("java", "-jar", "/opt/shop/shop.jar", "8080");
    List<String> command = List.of(jdk.java().toString(), "-jar", shopJar.toString(), "" + port);

    try (ContainerProcess app =
        ContainerProcess.start(
            "JAVA_TOOL_OPTIONS",
            command,
            Map.of("JAVA_TOOL_OPTIONS", options),
            dir,
            dir.resolve("console.out"),
            port,
            "/ready")) {
      assertThat(app.output()).startsWith("Picked up JAVA_TOOL_OPTIONS: " + options + "\n");
      assertThat(app.output())
          .as("an endpoint on 0.0.0.0, so that a published port reaches it, is warned about")
          .contains("[levee] WARN the endpoint at http://0.0.0.0:" + http + "/ is reachable");
      assertProtects(app, port, "/api/orders", http);
      String pid = Long.toString(app.pid());

      Cli.Result inherited = Cli.run(jdk, Map.of("JAVA_TOOL_OPTIONS", options), "status", pid);
      String unset =
          DocRecipe.named("container-status")
              .with("/opt/levee/levee-agent.jar", TestPaths.agentJar())
              .with("status 1", "status " + pid)
              .text()
              .strip();
      Cli.Result clean =
          Cli.exec(
              List.of("/bin/sh", "-c", unset),
              Map.of("JAVA_TOOL_OPTIONS", options, "PATH", onPath(jdk)));

      assertThat(inherited.exit()).as("%s", inherited).isZero();
      assertThat(inherited.out()).containsPattern("(?m)^recipes .* rate-limit=1$");
      assertThat(inherited.err())
          .as("the command's own JVM takes the variable, but the agent stays out of it")
          .isEqualTo("Picked up JAVA_TOOL_OPTIONS: " + options + "\n");
      assertThat(clean.exit()).as("%s", clean).isZero();
      assertThat(clean.out()).isEqualTo(inherited.out());
      assertThat(clean.err()).as("%s", clean).isEmpty();
    }
  }

  /** The manual's unit for a service on {@code port}, its endpoint on {@code http}. */
  private DocRecipe systemdUnit(int port, int http) {
    return DocRecipe.named("systemd-unit")
        .with("/usr/bin/java", jdk.java())
        .with("/opt/levee/levee-agent.jar", TestPaths.agentJar())
        .with("/etc/levee/rules.yaml", rules)
        .with("/opt/shop/shop.jar 8080", shopJar + " " + port)
        .with(":9464", ":" + http);
  }

  /**
   * The recipe's start-up line and endpoint, then three requests to a path the rules limit to a
   * burst of two: two pass, the third gets the rules' 503, and {@code /status} counts them.
   */
  private static void assertProtects(ContainerProcess app, int port, String path, int http)
      throws Exception {
    assertThat(app.output())
        .contains("[levee] INFO started: 1 resource from " + rules + "; integrations ")
        .containsPattern(
            "\\[levee] (INFO serving the live page, /metrics and /status at|WARN the endpoint at)"
                + " http://[0-9.]+:"
                + http
                + "/");
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
              .timeout(Duration.ofSeconds(30))
              .build();
      statuses.add(CLIENT.send(request, HttpResponse.BodyHandlers.discarding()).statusCode());
    }
    assertThat(statuses).containsExactly(200, 200, 503);
    StatusRows.Row row = StatusRows.get(http).get("recipes");
    assertThat(row.passed()).isEqualTo(2);
    assertThat(row.blocked()).containsEntry("rate-limit", 1L);
  }

  /** The one group of {@code regex} in the recipe. */
  private static String only(DocRecipe recipe, String regex) {
    Matcher m = Pattern.compile(regex).matcher(recipe.text());
    assertThat(m.find()).as("%s in the recipe %s", regex, recipe.name()).isTrue();
    String found = m.group(1);
    assertThat(m.find()).as("a second %s in %s", regex, recipe.name()).isFalse();
    return found;
  }

  /** {@code PATH} with the JDK's {@code bin} first, as an image or a host with that JDK has. */
  private static String onPath(Jdk jdk) {
    return jdk.home().resolve("bin") + File.pathSeparator + System.getenv("PATH");
  }

  /**
   * An executable jar that {@code java -jar shop.jar PORT} runs: a javax servlet application on
   * embedded Tomcat ({@link TomcatApp}) listening on {@code PORT}, its classes named by the
   * manifest's {@code Class-Path}.
   */
  private static Path shopJar(Path dir) throws IOException {
    Manifest manifest = new Manifest();
    Attributes main = manifest.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    main.put(Attributes.Name.MAIN_CLASS, TomcatApp.class.getName());
    main.put(
        Attributes.Name.CLASS_PATH,
        Arrays.stream(TestPaths.applicationClassPath().split(File.pathSeparator))
            .map(entry -> Paths.get(entry).toUri().toString())
            .collect(Collectors.joining(" ")));
    Path jar = dir.resolve("shop.jar");
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream ignored = new JarOutputStream(out, manifest)) {
      return jar;
    }
  }
}
