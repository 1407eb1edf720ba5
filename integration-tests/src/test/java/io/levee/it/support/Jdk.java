package io.levee.it.support;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Assumptions;

/**
 * A JDK the forked applications run on: 17 is the one running the tests; 25 is found through {@code
 * LEVEE_JDK25_HOME} (set by {@code run-tests.sh}) or under {@code /usr/lib/jvm}. A missing JDK
 * fails the suites that need it, since the README promises them; {@code LEVEE_SKIP_JDK25=1} skips
 * them on purpose instead, with the reason in the report and in {@code run-tests.sh}'s summary.
 */
public record Jdk(int feature, Path home) {

  public static Jdk current() {
    return new Jdk(Runtime.version().feature(), Paths.get(System.getProperty("java.home")));
  }

  /** The JDK of that feature release, or aborts the calling test (reported as skipped). */
  public static Jdk require(int feature) {
    if (Runtime.version().feature() == feature) {
      return current();
    }
    Path home = find(feature);
    if (home == null) {
      String skip = "LEVEE_SKIP_JDK" + feature;
      Assumptions.assumeFalse(
          "1".equals(System.getenv(skip)),
          skip + "=1: the JDK " + feature + " variants are skipped");
      throw new IllegalStateException(
          "no JDK "
              + feature
              + " found: set LEVEE_JDK"
              + feature
              + "_HOME, or "
              + skip
              + "=1 to skip its variants");
    }
    return new Jdk(feature, home);
  }

  public Path java() {
    return home.resolve("bin").resolve("java");
  }

  @Override
  public String toString() {
    return "JDK " + feature;
  }

  private static Path find(int feature) {
    String env = System.getenv("LEVEE_JDK" + feature + "_HOME");
    if (env != null && !env.isEmpty()) {
      return isJdk(Paths.get(env), feature) ? Paths.get(env) : null;
    }
    Path jvms = Paths.get("/usr/lib/jvm");
    if (!Files.isDirectory(jvms)) {
      return null;
    }
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(jvms, "*" + feature + "*")) {
      for (Path dir : dirs) {
        if (isJdk(dir, feature)) {
          return dir;
        }
      }
    } catch (IOException e) {
      return null;
    }
    return null;
  }

  /** Checks the {@code release} file, so that {@code *25*} cannot pick a 17.0.25 update. */
  private static boolean isJdk(Path home, int feature) {
    try {
      return Files.isExecutable(home.resolve("bin/java"))
          && Files.readAllLines(home.resolve("release")).stream()
              .anyMatch(l -> l.matches("JAVA_VERSION=\"" + feature + "([.\"].*)?"));
    } catch (IOException e) {
      return false;
    }
  }
}
