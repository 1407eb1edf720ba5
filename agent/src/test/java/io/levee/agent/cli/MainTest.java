package io.levee.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @Test
  void validateCountsTheResourcesOfAGoodFile() throws IOException {
    Path file =
        write(
            """
        version: 1
        resources:
          - name: payments
            match:
              http: { urls: ["https://pay.example.com/**"] }
            concurrency: { max: 2 }
        """);

    assertThat(run("validate", file.toString())).isEqualTo(0);
    assertThat(text(out)).isEqualTo("OK: 1 resource\n");
  }

  @Test
  void validateOfAFileWithOnlyTheSystemRuleSaysItHasOne() throws IOException {
    Path file =
        write(
            """
        version: 1
        system:
          adaptive: {}
        """);

    assertThat(run("validate", file.toString())).isEqualTo(0);
    assertThat(text(out)).isEqualTo("OK: 0 resources and the system rule\n");
  }

  @Test
  void explainSaysWhichResourceACallHitsAndExitsOneWhenNone() throws IOException {
    Path file =
        write(
            """
        version: 1
        resources:
          - name: partner
            match: { http: { urls: ["*://*/**"] } }
            concurrency: { max: 2 }
          - name: orders
            match: { jdbc: { urls: ["jdbc:h2:**"], operations: [SELECT] } }
            concurrency: { max: 2 }
        """);

    assertThat(run("explain", file.toString(), "http://partner/api")).isEqualTo(0);
    assertThat(text(out)).startsWith("GET http://partner/api: resource partner (http,");
    out.reset();
    assertThat(run("explain", file.toString(), "--method", "post", "http://partner:8080/api"))
        .isEqualTo(1);
    assertThat(text(out))
        .startsWith("POST http://partner:8080/api: no resource")
        .contains("names no port");
    out.reset();
    assertThat(run("explain", file.toString(), "jdbc:h2:mem:shop", "select * from orders"))
        .isEqualTo(0);
    assertThat(text(out)).startsWith("SELECT [orders] on jdbc:h2:mem:shop: resource orders");
  }

  @Test
  void explainRefusesWhatIsNoCallAndAnInvalidFile() throws IOException {
    Path file = write("version: 1\nresources: []\n");
    assertThat(run("explain", file.toString(), "ftp://x")).isEqualTo(2);
    assertThat(text(err)).contains("'ftp://x' is no call");
    assertThat(run("explain", file.toString())).isEqualTo(2);
    assertThat(run("explain", file.toString(), "/a", "select 1")).isEqualTo(2);
    Path bad = write("version: 1\nresources:\n  - name: a\n");
    assertThat(run("explain", bad.toString(), "/a")).isEqualTo(1);
    assertThat(text(err)).contains(bad + ":3:");
  }

  @Test
  void versionSaysWhichAgentThisIs() {
    assertThat(run("--version")).isEqualTo(0);
    assertThat(text(out)).matches("Levee \\d+\\.\\d+\\.\\d+[-.\\w]*\n");
    out.reset();
    assertThat(run("version")).isEqualTo(0);
    assertThat(text(out)).startsWith("Levee ");
    assertThat(run("--version", "extra")).isEqualTo(2);
  }

  @Test
  void validatePrintsEachErrorWithFileLineAndColumn() throws IOException {
    Path file =
        write(
            """
        version: 1
        resources:
          - name: payments
            match:
              http: { urls: ["https://pay.example.com/**"] }
            concurency: { max: 2 }
        """);

    assertThat(run("validate", file.toString())).isEqualTo(1);
    assertThat(text(out).lines())
        .contains(
            file
                + ":6:5: resources[0].concurency: unknown key `concurency`; did you mean `concurrency`?")
        .allMatch(line -> line.startsWith(file + ":"));
  }

  @Test
  void validateOfAMissingFileFails() {
    assertThat(run("validate", dir.resolve("none.yaml").toString())).isEqualTo(1);
    assertThat(text(out)).contains("not found");
  }

  @Test
  void helpPrintsUsageAndSucceeds() {
    assertThat(run("--help")).isEqualTo(0);
    assertThat(text(out))
        .contains("validate FILE")
        .contains("attach PID [--rules FILE] [--http HOST:PORT]")
        .contains("status PID")
        .contains("reload PID [--rules FILE]")
        .contains("detach PID")
        .contains("list");
  }

  @Test
  void attachChecksTheRulesFileBeforeTouchingTheProcess() throws IOException {
    Path file =
        write(
            """
        version: 1
        resources:
          - name: payments
            match:
              http: { urls: ["https://pay.example.com/**"] }
            concurency: { max: 2 }
        """);

    // pid 1 exists but is no JVM of ours: reaching it would fail differently.
    assertThat(run("attach", "1", "--rules", file.toString())).isEqualTo(1);
    assertThat(text(err))
        .contains(file + ":6:5: resources[0].concurency: unknown key")
        .contains("is not valid: nothing sent to process 1");
  }

  @Test
  void commandsOnAProcessThatDoesNotExistSayNoSuchProcess() {
    assertThat(run("status", "999999999")).isEqualTo(1);
    assertThat(text(err)).startsWith("levee: no process with pid 999999999");
  }

  @Test
  void usageErrorsNameTheProblemAndTheCommandsUsage() {
    assertThat(run("attach")).isEqualTo(2);
    assertThat(text(err))
        .contains("levee: attach needs the PID of a JVM")
        .contains("usage: java -jar levee-agent.jar attach PID [--rules FILE] [--http HOST:PORT]");
  }

  @Test
  void aLongSyntaxNeverRunsIntoItsDescription() {
    String usage = Usage.all();
    assertThat(usage).doesNotContain("[--force]protect").doesNotContain("[SQL]which");
    assertThat(usage)
        .contains(
            "  attach PID [--rules FILE] [--http HOST:PORT] [--force]\n"
                + " ".repeat(48)
                + "protect")
        .contains("  status PID" + " ".repeat(36) + "the resources in force");
  }

  @Test
  void unknownCommandOrMissingArgumentIsAUsageError() {
    assertThat(run("frobnicate")).isEqualTo(2);
    assertThat(run("validate")).isEqualTo(2);
    assertThat(run()).isEqualTo(2);
  }

  private int run(String... args) {
    return Main.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private Path write(String yaml) throws IOException {
    return Files.writeString(dir.resolve("rules.yaml"), yaml);
  }

  private static String text(ByteArrayOutputStream bytes) {
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
