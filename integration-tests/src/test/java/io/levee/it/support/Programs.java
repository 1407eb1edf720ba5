package io.levee.it.support;

import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * The programs from Debian that some tests run (Prometheus, Chromium), which {@code run-tests.sh}
 * installs with {@code scripts/ensure-package.sh} and names in a {@code LEVEE_*} variable.
 */
public final class Programs {
  private Programs() {}

  /**
   * {@code binary}: the path in {@code givenVariable} when set, else on the {@code PATH}, else in
   * {@code /usr/bin}. The test is skipped when {@code skipVariable} is {@code 1}, and fails when
   * the program cannot be found, saying how to install it.
   */
  public static Path find(String binary, String givenVariable, String skipVariable) {
    Assumptions.assumeFalse("1".equals(System.getenv(skipVariable)), skipVariable + "=1");
    List<String> candidates = new ArrayList<>();
    if (System.getenv(givenVariable) != null) {
      candidates.add(System.getenv(givenVariable));
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      candidates.add(dir + "/" + binary);
    }
    candidates.add("/usr/bin/" + binary);
    for (String c : candidates) {
      Path p = Paths.get(c);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    return fail(
        "no %s binary: run scripts/ensure-package.sh %s %s (%s=1 skips this test)",
        binary, binary, binary, skipVariable);
  }
}
