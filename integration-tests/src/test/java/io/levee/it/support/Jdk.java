package io.levee.it.support;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Assumptions;

/**
 * A JDK the forked applications run on: 17 is the one running the tests; 25 is found through {@code
 * LEVEE_JDK25_HOME} (set by {@code run-tests.sh}) or under {@code /usr/lib/jvm}. A missing 25 skips
 * its suites with a reason in the report, it does not fail them: no package installs it here.
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
    Assumptions.assumeTrue(
        home != null, "no JDK " + feature + " found (set LEVEE_JDK" + feature + "_HOME)");
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
