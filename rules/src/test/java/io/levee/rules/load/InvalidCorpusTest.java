package io.levee.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file under {@code invalid/} states, in its first comment lines, each error it must produce
 * ({@code # expect: LINE:COLUMN PATH: MESSAGE}); the loader must report exactly those and no other.
 */
class InvalidCorpusTest {
  private static final Pattern EXPECT = Pattern.compile("# expect: (\\d+):(\\d+) (.*?): (.*)");

  static Stream<Path> files() throws IOException, URISyntaxException {
    Path dir = Paths.get(InvalidCorpusTest.class.getResource("/invalid").toURI());
    try (Stream<Path> list = Files.list(dir)) {
      return list
          .filter(p -> p.toString().endsWith(".yaml"))
          .sorted()
          .collect(Collectors.toList())
          .stream();
    }
  }

  @Test
  void holdsAtLeastSixtyFiles() throws Exception {
    assertThat(files().count()).isGreaterThanOrEqualTo(60);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("files")
  void reportsExactlyTheExpectedErrors(Path file) throws IOException {
    List<String> expected = expectations(file);
    assertThat(expected).as("the file states its expected errors").isNotEmpty();

    LoadResult result = RulesLoader.load(file);

    assertThat(result.ok()).isFalse();
    assertThat(result.rules()).isNull();
    List<String> actual = new ArrayList<>();
    for (RuleError e : result.errors()) {
      assertThat(e.file()).isEqualTo(file.toString());
      actual.add(e.line() + ":" + e.column() + " " + e.path() + ": " + e.message());
    }
    assertThat(actual).containsExactlyElementsOf(expected);
  }

  private static List<String> expectations(Path file) throws IOException {
    List<String> expected = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.startsWith("#")) {
        break;
      }
      Matcher m = EXPECT.matcher(line);
      if (m.matches()) {
        expected.add(m.group(1) + ":" + m.group(2) + " " + m.group(3) + ": " + m.group(4));
      }
    }
    return expected;
  }
}
