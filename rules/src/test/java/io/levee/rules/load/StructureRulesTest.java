package io.levee.rules.load;

import static io.levee.rules.testing.TestRules.HTTP;
import static io.levee.rules.testing.TestRules.SERVLET;
import static io.levee.rules.testing.TestRules.errors;
import static io.levee.rules.testing.TestRules.only;
import static io.levee.rules.testing.TestRules.resource;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One test per rule about the shape of the file: keys, sections, lists, names, and reporting. */
class StructureRulesTest {

  @Test
  void rejectsAnEmptyFile() {
    assertThat(errors("# nothing yet\n"))
        .containsExactly(": the rules file is empty; it needs at least `version: 1`");
  }

  @Test
  void rejectsATopLevelThatIsNotAMapping() {
    assertThat(errors("just words\n"))
        .containsExactly(
            ": expected a mapping with version, settings, system and resources, got 'just words'");
  }

  @Test
  void requiresVersion() {
    assertThat(errors("settings: {}\n"))
        .containsExactly("version: `version` is required: start the file with `version: 1`");
  }

  @Test
  void acceptsOnlyVersionOne() {
    assertThat(errors("version: 1.0\n"))
        .containsExactly(
            "version: unsupported version '1.0'; this version of Levee reads version 1");
  }

  @Test
  void suggestsTheClosestKeyForAnUnknownOne() {
    assertThat(errors(resource(SERVLET, "rate-limit: { rate: 5/s, brust: 9 }")))
        .containsExactly(
            "resources[0].rate-limit.brust: unknown key `brust`; did you mean `burst`?");
  }

  @Test
  void listsTheValidKeysWhenNoneIsClose() {
    assertThat(errors(resource(SERVLET, "concurrency: { max: 5, parallelism: 2 }")))
        .containsExactly(
            "resources[0].concurrency.parallelism: unknown key `parallelism`; expected one of: max,"
                + " max-wait");
  }

  @Test
  void rejectsADuplicateKeyAtItsSecondOccurrence() {
    assertThat(errors("version: 1\nsettings:\n  mode: enforce\n  mode: monitor\n"))
        .containsExactly("settings.mode: duplicate key `mode`; it is already set on line 3");
  }

  @Test
  void rejectsADuplicateResourceName() {
    String yaml =
        resource(SERVLET, "concurrency: { max: 1 }")
            + "  - name: r\n    match: { "
            + HTTP
            + " }\n    concurrency: { max: 1 }\n";
    assertThat(errors(yaml))
        .containsExactly(
            "resources[1].name: duplicate resource name `r`;"
                + " line 3 already uses it, and names must be unique");
  }

  @Test
  void requiresAResourceNameOfSafeCharacters() {
    String yaml = resource(SERVLET, "concurrency: { max: 1 }").replace("name: r", "name: r/1");
    assertThat(errors(yaml))
        .containsExactly(
            "resources[0].name: expected a name of 1 to 64 letters,"
                + " digits, '.', '_' or '-', got 'r/1'");
  }

  @Test
  void requiresAResourceName() {
    String yaml =
        "version: 1\nresources:\n  - match: { " + SERVLET + " }\n    concurrency: { max: 1 }\n";
    assertThat(errors(yaml))
        .containsExactly(
            "resources[0].name: `name` is required: a unique name for the resource, like checkout");
  }

  @Test
  void rejectsAResourceWithoutPolicy() {
    assertThat(errors(resource(SERVLET, "on-block: { status: 503 }")))
        .containsExactly(
            "resources[0]: resource `r` has no policy; add at least one of circuit-breaker,"
                + " rate-limit, concurrency, adaptive or timeouts");
  }

  @Test
  void requiresMatch() {
    String yaml = "version: 1\nresources:\n  - name: r\n    concurrency: { max: 1 }\n";
    assertThat(errors(yaml))
        .containsExactly(
            "resources[0].match: `match` is required: which calls"
                + " this resource covers, like match: { servlet: { paths: [\"/api/**\"] } }");
  }

  @Test
  void requiresOneKindInMatch() {
    assertThat(errors(resource("", "concurrency: { max: 1 }")))
        .containsExactly("resources[0].match: `match` needs one of servlet, http, jdbc or method");
  }

  @Test
  void rejectsTwoKindsInMatch() {
    assertThat(errors(resource(SERVLET + ", " + HTTP, "concurrency: { max: 1 }")))
        .containsExactly(
            "resources[0].match.http: a resource matches one kind of call, but `match` has both"
                + " `servlet` and `http`; split it into two resources");
  }

  @Test
  void matchesAllCallsOfAKindWhenItsFieldsAreLeftOut() {
    assertThat(only(resource("servlet:", "concurrency: { max: 1 }")).match.paths).isEmpty();
  }

  @Test
  void requiresAdaptiveInSystem() {
    assertThat(errors("version: 1\nsystem: { mode: monitor }\n"))
        .containsExactly(
            "system.adaptive: `adaptive` is required: the limit on all inbound requests, like"
                + " adaptive: { cpu-target: 80% }");
  }

  @Test
  void requiresResourcesToBeAList() {
    assertThat(errors("version: 1\nresources: { name: r }\n"))
        .containsExactly(
            "resources: expected"
                + " a list of resources, each starting with `- name:`, got a mapping");
  }

  @Test
  void requiresSectionsToBeMappings() {
    assertThat(errors(resource(SERVLET, "concurrency: 5")))
        .containsExactly(
            "resources[0].concurrency: expected a mapping with max and max-wait, got '5'");
  }

  @Test
  void rejectsAnEmptyListThatWouldReadAsMatchEverything() {
    assertThat(errors(resource("servlet: { paths: [] }", "concurrency: { max: 1 }")))
        .containsExactly(
            "resources[0].match.servlet.paths: the list is empty; leave `paths` out to match"
                + " everything");
  }

  @Test
  void requiresListsToBeLists() {
    assertThat(errors(resource("servlet: { paths: /api }", "concurrency: { max: 1 }")))
        .containsExactly(
            "resources[0].match.servlet.paths: expected a list like [\"/api/**\"], got '/api'");
  }

  @Test
  void rejectsATagThatIsNotACoreOne() {
    assertThat(errors("version: 1\nsettings: { mode: !!binary ZW5mb3JjZQ== }\n"))
        .containsExactly("settings.mode: YAML tags are not allowed, found `!!binary`");
  }

  @Test
  void locatesYamlSyntaxErrors() {
    LoadResult result = RulesLoader.parse("bad.yaml", "version: 1\nsettings: { mode: enforce\n");
    assertThat(result.errors()).hasSize(1);
    assertThat(result.errors().get(0).toString()).startsWith("bad.yaml:3:1: invalid YAML: ");
  }

  @Test
  void reportsEveryErrorSortedByPosition() {
    LoadResult result =
        RulesLoader.parse(
            "t.yaml",
            resource(
                    "servlet: { methods: [FETCH] }",
                    "rate-limit: { rate: fast }",
                    "concurrency: { max: 0 }")
                .replace("version: 1", "version: 3"));
    assertThat(result.errors())
        .extracting(e -> e.line() + ":" + e.column() + " " + e.path())
        .containsExactly(
            "1:10 version",
            "4:35 resources[0].match.servlet.methods[0]",
            "5:25 resources[0].rate-limit.rate",
            "6:25 resources[0].concurrency.max");
  }

  @Test
  void appliesNothingOfAFileWithOneError() {
    LoadResult result =
        RulesLoader.parse(
            "t.yaml",
            resource(SERVLET, "concurrency: { max: 1 }")
                + "  - name: s\n    match: { "
                + HTTP
                + " }\n    concurrency: { max: 0 }\n");
    assertThat(result.ok()).isFalse();
    assertThat(result.rules()).isNull();
    assertThat(result.errors()).hasSize(1);
  }

  @Test
  void formatsAnErrorAsFileLineColumnPathMessage() {
    assertThat(new RuleError("a.yaml", 3, 7, "settings.mode", "bad").toString())
        .isEqualTo("a.yaml:3:7: settings.mode: bad");
    assertThat(new RuleError("a.yaml", 1, 1, "", "empty").toString())
        .isEqualTo("a.yaml:1:1: empty");
  }

  @Test
  void reportsAMissingFile(@TempDir Path dir) {
    LoadResult result = RulesLoader.load(dir.resolve("absent.yaml"));
    assertThat(result.errors())
        .extracting(RuleError::message)
        .containsExactly("rules file not found");
  }

  @Test
  void reportsAFileThatIsNotUtf8(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("latin1.yaml");
    Files.write(
        file,
        new byte[] {'v', 'e', 'r', 's', 'i', 'o', 'n', ':', ' ', '1', '\n', '#', (byte) 0xE9});
    LoadResult result = RulesLoader.load(file);
    assertThat(result.errors())
        .extracting(e -> e.line() + ":" + e.column() + " " + e.message())
        .containsExactly("2:2 rules file is not valid UTF-8 (byte 12)");
  }

  @Test
  void loadsAFileThatStartsWithAByteOrderMark(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("bom.yaml");
    Files.write(file, "\uFEFFversion: 1\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThat(RulesLoader.load(file).ok()).isTrue();
  }
}
