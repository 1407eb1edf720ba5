package io.levee.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RulesLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every rules example a user may copy loads without an error: each {@code ```yaml} block of the
 * Markdown in {@code docs/} and of the README, and the demo's own rules file. A block fenced as
 * {@code ```yaml fragment} is a deliberate excerpt and one fenced {@code ```yaml prometheus} the
 * configuration of Prometheus; both are skipped.
 */
class DocsExamplesTest {
  private static final Path ROOT = Path.of("..");

  record Example(Path file, int line, String yaml) {
    String name() {
      return ROOT.relativize(file) + ":" + line;
    }
  }

  @TestFactory
  Stream<DynamicTest> everyYamlExampleInTheDocsLoads() throws IOException {
    return examples().stream()
        .map(e -> DynamicTest.dynamicTest(e.name(), () -> assertLoads(e.name(), e.yaml())));
  }

  @Test
  void theDocsHaveExamplesToCheck() throws IOException {
    assertThat(examples().stream().filter(e -> e.file().startsWith(ROOT.resolve("docs"))))
        .as("yaml examples in docs/rules.md and docs/operations.md")
        .hasSizeGreaterThanOrEqualTo(10);
  }

  @Test
  void theDemoRulesLoad() {
    LoadResult result = RulesLoader.load(ROOT.resolve("demo/rules.yaml"));
    assertThat(result.errors()).isEmpty();
    assertThat(result.rules().resources).hasSize(3);
    assertThat(result.rules().system).isNotNull();
  }

  @Test
  void aBrokenExampleWouldBeCaught() {
    LoadResult result = RulesLoader.parse("x.md:1", "version: 1\nresources:\n  - name: a\n");
    assertThat(result.ok()).isFalse();
  }

  private static void assertLoads(String name, String yaml) {
    LoadResult result = RulesLoader.parse(name, yaml);
    assertThat(result.errors()).as("errors of the example at %s", name).isEmpty();
  }

  static List<Example> examples() throws IOException {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    files.add(ROOT.resolve("README.md"));
    List<Example> examples = new ArrayList<>();
    for (Path file : files) {
      examples.addAll(yamlBlocks(file, Files.readAllLines(file)));
    }
    return examples;
  }

  /** The {@code ```yaml} blocks of a Markdown file, except those marked {@code fragment}. */
  static List<Example> yamlBlocks(Path file, List<String> lines) {
    List<Example> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String fence = lines.get(i).strip();
      if (!fence.startsWith("```")) {
        continue;
      }
      String[] info = fence.substring(3).strip().split("\\s+");
      int start = i + 1;
      StringBuilder body = new StringBuilder();
      for (i = start; i < lines.size() && !lines.get(i).strip().startsWith("```"); i++) {
        body.append(lines.get(i)).append('\n');
      }
      boolean yaml = info[0].equals("yaml") || info[0].equals("yml");
      // an excerpt of a rules file, or another program's configuration (Prometheus)
      boolean fragment =
          info.length > 1 && (info[1].equals("fragment") || info[1].equals("prometheus"));
      if (yaml && !fragment) {
        blocks.add(new Example(file, start + 1, body.toString()));
      }
    }
    return blocks;
  }
}
