package io.levee.agent.rulesfile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RulesFileTest {
  @TempDir Path dir;

  private boolean mayNameMethods(String yaml) throws Exception {
    Path file = dir.resolve("rules.yaml");
    Files.writeString(file, yaml);
    return RulesFile.mayNameMethods(file.toString());
  }

  @Test
  void aMethodKeyInBlockOrFlowStyleQuotedOrNotIsFound() throws Exception {
    assertThat(
            mayNameMethods(
                "resources:\n  - name: a\n    match:\n      method:\n        class: X\n"))
        .isTrue();
    assertThat(mayNameMethods("resources:\n  - name: a\n    match: { method: { class: X } }\n"))
        .isTrue();
    assertThat(mayNameMethods("resources:\n  - name: a\n    match: {\"method\": {class: X}}\n"))
        .isTrue();
  }

  @Test
  void httpMethodsAndOtherKeysAreNotAMethodResource() throws Exception {
    assertThat(
            mayNameMethods(
                "resources:\n  - name: a\n    match:\n      servlet: { methods: [POST], paths: [/x] }\n"
                    + "    concurrency: { max: 1 }\n"))
        .isFalse();
    assertThat(mayNameMethods("version: 1\n")).isFalse();
  }

  @Test
  void noFileNamesNothingAndAFileThatCannotBeReadMayNameAnything() throws Exception {
    assertThat(RulesFile.mayNameMethods(null)).isFalse();
    assertThat(RulesFile.mayNameMethods(dir.resolve("missing.yaml").toString())).isFalse();
    assertThat(RulesFile.mayNameMethods(dir.toString())).isTrue();
  }
}
