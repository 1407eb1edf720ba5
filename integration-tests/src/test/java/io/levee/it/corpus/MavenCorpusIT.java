package io.levee.it.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Apache Maven, as downloaded from Maven Central (the pom unpacks its binary distribution into
 * {@code target/corpus}), builds a small project (compiler, Surefire with JUnit 5, jar) each {@link
 * Way}, with the way's options (the agent) in {@code MAVEN_OPTS}; the builds must not differ.
 *
 * <p>{@code MAVEN_OPTS} reaches Maven's own JVM only: Surefire forks the tests' JVM from its {@code
 * argLine}, which does not inherit it. So the way's options go into the fork too, through {@code
 * -DargLine}, with an agent log of its own ({@link #FORK}); the project's client test calls a local
 * HTTP server with {@code HttpURLConnection}, which gives the monitor rules something to decide.
 *
 * <p>The builds use the outer build's local repository, so the plugins are already there; with
 * {@code -ntp} a download, if any, prints nothing, so the first way may go online unseen.
 */
class MavenCorpusIT {
  private static final String MAVEN = "maven";
  private static final String FORK = "maven-surefire-fork";
  private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(2);

  @Test
  void buildsTheProjectAlikeEachWay() {
    Map<Way, MavenBuild> builds = new EnumMap<>(Way.class);
    for (Way way : Way.values()) {
      builds.put(way, build(way));
    }

    MavenBuild plain = builds.get(Way.PLAIN);
    assertThat(plain.exit()).as("the build without the agent works").isZero();
    assertThat(plain.console()).contains("[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0");
    assertThat(plain.jarEntries()).anyMatch(e -> e.startsWith("org/example/greeter/Greeter.class"));
    Transparency.assertSame(MAVEN, builds);
    for (Way way : Way.values()) {
      Transparency.assertAgentQuiet(way, FORK);
    }

    // Not a vacuous monitor run: the rules were read, and in the tests' JVM the JDK's HTTP client
    // was woven and called.
    String started = "INFO started: " + Way.MONITOR_RESOURCES + " resources";
    assertThat(Way.MONITOR.agentLogText(MAVEN)).contains(started);
    assertThat(Way.MONITOR.agentLogText(FORK))
        .contains(started)
        .contains("instrumented sun.net.www.protocol.http.HttpURLConnection");
    // Maven's core, its resolver and its plugins woven for the method resources, as Surefire's
    // booter in the tests' JVM. A build is over before the agent's first summary of decisions.
    MethodResources.assertWoven(
        MAVEN,
        500,
        "org\\.apache\\.maven\\.DefaultMaven",
        "org\\.apache\\.maven\\.lifecycle\\.internal\\.MojoExecutor",
        "org\\.eclipse\\.aether\\.internal\\.impl\\.DefaultRepositorySystem",
        "org\\.apache\\.maven\\.plugin\\.compiler\\.CompilerMojo",
        "org\\.apache\\.maven\\.plugins\\.jar\\..*Mojo");
    MethodResources.assertWoven(
        FORK, 30, "org\\.apache\\.maven\\.surefire\\.junitplatform\\.JUnitPlatformProvider");
    // Nor a vacuous faults run: the forced faults tripped in the woven client, and tests passed.
    assertThat(Transparency.faultsTripped(FORK)).as("faults tripped in the tests' JVM").isTrue();
  }

  private static MavenBuild build(Way way) {
    Path project = freshCopy(way);
    List<String> command = new ArrayList<>();
    command.add(mavenHome().resolve("bin/mvn").toString());
    command.addAll(List.of("-B", "-ntp", "-Dmaven.repo.local=" + localRepository()));
    if (way != Way.PLAIN) {
      command.add("-DargLine=" + way.jvmOptionsLine(FORK));
    }
    command.add("package");
    Map<String, String> env =
        Map.of(
            "JAVA_HOME", System.getProperty("java.home"),
            // Set for every way, so that one from the outer build's environment cannot leak in.
            "MAVEN_OPTS", way.jvmOptionsLine(MAVEN),
            "MAVEN_ARGS", "");
    Outcome outcome =
        Outcome.run(MAVEN + "-" + way.name().toLowerCase(), command, project, env, BUILD_TIMEOUT);
    return MavenBuild.of(outcome, project);
  }

  /**
   * A copy of the project for this way, so that each build starts from sources only. Its own {@code
   * .mvn} makes it Maven's top directory, so that nothing of Levee's tree above it is read; its
   * {@code jvm.config} gives Maven's JVM the C1 compiler only, which halves a build this short.
   */
  private static Path freshCopy(Way way) {
    Path source = TestPaths.root().resolve("integration-tests/src/test/corpus/maven-project");
    Path copy = Way.dir().resolve("maven-project-" + way.name().toLowerCase());
    try {
      deleteTree(copy);
      try (Stream<Path> walk = Files.walk(source)) {
        for (Path from : (Iterable<Path>) walk::iterator) {
          Path to = copy.resolve(source.relativize(from).toString());
          if (Files.isDirectory(from)) {
            Files.createDirectories(to);
          } else {
            Files.copy(from, to);
          }
        }
      }
      return copy;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }

  /** The distribution the pom unpacked; its version is the pom's alone. */
  private static Path mavenHome() {
    Path unpacked = TestPaths.root().resolve("integration-tests/target/corpus");
    try (DirectoryStream<Path> homes = Files.newDirectoryStream(unpacked, "apache-maven-*")) {
      for (Path home : homes) {
        return home;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + unpacked + "; run mvn verify", e);
    }
    throw new IllegalStateException("Maven is not unpacked in " + unpacked + "; run mvn verify");
  }

  /**
   * The outer build's local repository: Failsafe passes a {@code -Dmaven.repo.local} given to the
   * outer build on to the tests; without one it is Maven's default.
   */
  private static Path localRepository() {
    String given = System.getProperty("maven.repo.local");
    return given != null && !given.isBlank()
        ? Paths.get(given).toAbsolutePath()
        : Paths.get(System.getProperty("user.home"), ".m2", "repository");
  }
}
