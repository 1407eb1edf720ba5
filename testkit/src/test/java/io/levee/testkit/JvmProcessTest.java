package io.levee.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests of {@link JvmProcess}: the command line it builds, and a real JVM started and read. */
class JvmProcessTest {
  @TempDir Path dir;

  @Test
  void buildsTheCommandLineInTheOrderGiven() {
    JvmCommand b =
        JvmProcess.java(Path.of("/jdk"))
            .cpus("0-1")
            .options("-Xmx256m")
            .agent(Path.of("/a/levee-agent.jar"), "rules=r.yaml")
            .systemProperty("k", "v")
            .main("app.jar", "app.Main")
            .args("8080");

    assertThat(b.commandLine())
        .containsExactly(
            "taskset",
            "-c",
            "0-1",
            "/jdk/bin/java",
            "-Xmx256m",
            "-javaagent:/a/levee-agent.jar=rules=r.yaml",
            "-Dk=v",
            "-cp",
            "app.jar",
            "app.Main",
            "8080");
  }

  @Test
  void leavesTheAgentsEqualsSignOutWithoutOptions() {
    assertThat(JvmProcess.agentOption(Path.of("a.jar"), "")).isEqualTo("-javaagent:a.jar");
    assertThat(JvmProcess.agentOption(Path.of("a.jar"), null)).isEqualTo("-javaagent:a.jar");
  }

  @Test
  void takesNoJvmOptionsForAScript() {
    assertThatThrownBy(() -> JvmProcess.command(List.of("mvn")).options("-Xmx1g"))
        .isInstanceOf(IllegalStateException.class);
    assertThat(JvmProcess.command(List.of("/bin/sh", "x.sh")).args("run").commandLine())
        .containsExactly("/bin/sh", "x.sh", "run");
  }

  @Test
  void writesStdoutAndStderrApartAndWaitsForTheEnd() throws Exception {
    Path out = dir.resolve("out.log");
    Path err = dir.resolve("err.log");
    JvmProcess jvm =
        JvmProcess.java().options("-XshowSettings:properties", "-version").output(out, err).start();

    assertThat(jvm.waitFor(Duration.ofSeconds(60))).isTrue();
    assertThat(jvm.exitValue()).isZero();
    assertThat(jvm.errors()).contains("java.home = ");
    assertThat(jvm.output()).isEmpty();
  }

  @Test
  void findsTheReadyLineInAFile() throws Exception {
    try (JvmProcess jvm =
        JvmProcess.java()
            .options("-XshowSettings:properties", "-version")
            .output(dir.resolve("both.log"))
            .ready(Pattern.compile("(?m)^\\s*java\\.specification\\.version = (\\d+)$"))
            .start()) {
      Optional<MatchResult> ready = jvm.awaitReady(Duration.ofSeconds(60));

      assertThat(ready).isPresent();
      assertThat(ready.get().group(1)).isEqualTo(Integer.toString(Runtime.version().feature()));
    }
  }

  @Test
  void handsEachLineOverAndCopiesItToTheLog() throws Exception {
    Path log = dir.resolve("lines.log");
    List<String> seen = new ArrayList<>();
    JvmProcess jvm =
        JvmProcess.java()
            .options("-XshowSettings:properties", "-version")
            .lines(
                log,
                line -> {
                  synchronized (seen) {
                    seen.add(line);
                  }
                })
            .ready(Pattern.compile("^\\s*java\\.home = "))
            .start();

    assertThat(jvm.awaitReady(Duration.ofSeconds(60))).isPresent();
    assertThat(jvm.stop(Duration.ofSeconds(30))).isTrue();
    synchronized (seen) {
      assertThat(Files.readAllLines(log)).isEqualTo(seen);
    }
  }

  @Test
  void saysNotReadyWhenTheProcessEndsWithoutTheLine() throws Exception {
    try (JvmProcess jvm =
        JvmProcess.java()
            .options("-version")
            .output(dir.resolve("v.log"))
            .ready(Pattern.compile("READY"))
            .start()) {
      assertThat(jvm.awaitReady(Duration.ofSeconds(60))).isEmpty();
      assertThat(jvm.isAlive()).isFalse();
    }
  }
}
