package io.levee.rules.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random damage to the SPEC examples (characters deleted, duplicated or replaced, with a fixed
 * seed): every variant either loads or yields located errors, and nothing else ever comes out.
 */
class LoaderFuzzTest {
  private static final int CASES = 2500;
  private static final String NOISE = ":-  \n\t{}[],&*!#'\"%/|>?@`~0a5sZ.\\";

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/valid/spec-example.yaml",
        "/valid/spec-method-example.yaml",
        "/valid/spec-quota-example.yaml"
      })
  void everyMutationLoadsOrYieldsLocatedErrors(String file) throws Exception {
    String example =
        new String(
            Files.readAllBytes(Paths.get(LoaderFuzzTest.class.getResource(file).toURI())),
            StandardCharsets.UTF_8);
    Random random = new Random(20240611L);
    int rejected = 0;
    for (int i = 0; i < CASES; i++) {
      String mutant = mutate(example, random);
      LoadResult result;
      try {
        result = RulesLoader.parse("fuzz.yaml", mutant);
      } catch (RuntimeException | StackOverflowError e) {
        throw new AssertionError("case " + i + " threw on:\n" + mutant, e);
      }
      if (result.ok()) {
        assertThat(result.rules()).isNotNull();
        continue;
      }
      rejected++;
      assertThat(result.rules()).isNull();
      assertThat(result.errors()).isNotEmpty();
      for (RuleError e : result.errors()) {
        if (e.line() < 1 || e.column() < 1 || e.message().isEmpty() || e.path() == null) {
          fail("case " + i + " gave " + e + " for:\n" + mutant);
        }
      }
    }
    // the mutations must actually break files, or this test proves nothing
    assertThat(rejected).isGreaterThan(CASES / 2);
  }

  private static String mutate(String text, Random random) {
    StringBuilder s = new StringBuilder(text);
    int edits = 1 + random.nextInt(3);
    for (int e = 0; e < edits && s.length() > 0; e++) {
      int at = random.nextInt(s.length());
      switch (random.nextInt(3)) {
        case 0:
          s.deleteCharAt(at);
          break;
        case 1:
          s.insert(at, s.charAt(at));
          break;
        default:
          s.setCharAt(at, NOISE.charAt(random.nextInt(NOISE.length())));
      }
    }
    return s.toString();
  }
}
