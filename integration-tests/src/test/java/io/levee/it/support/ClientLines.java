package io.levee.it.support;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Other version lines of an HTTP client than the one on the test applications' class path: {@code
 * client-lines/<line>} (a Maven module that only declares the line's dependency) writes its
 * resolved run-time class path to {@code target/classpath.txt}, and a forked application runs with
 * that line in place of the default version ({@code ForkedApp.Builder.classPath}). The code that
 * calls the client is compiled against the default version and uses only what every line has.
 */
public final class ClientLines {
  private ClientLines() {}

  /** The jars of {@code line} (e.g. {@code okhttp3}), as its module resolved them. */
  public static List<String> classPath(String line) {
    Path file =
        TestPaths.root().resolve("client-lines").resolve(line).resolve("target/classpath.txt");
    if (!Files.isRegularFile(file)) {
      throw new IllegalStateException(
          "the class path of the client line "
              + line
              + " is not written ("
              + file
              + "); run `mvn install -DskipTests` from the root");
    }
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8).trim();
      return Arrays.stream(text.split(File.pathSeparator)).filter(e -> !e.isBlank()).toList();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file, e);
    }
  }

  /**
   * The test applications' class path ({@link TestPaths#applicationClassPath()}) with {@code line}
   * in place of the default version: every jar of a Maven group the line has (its directory in the
   * local repository, e.g. {@code com/squareup/okio}) is dropped, and the line's jars take the
   * place of the first one dropped. Groups, not artifacts, because a line may rename one ({@code
   * okhttp} 4 and {@code okhttp-jvm} 5).
   */
  public static String applicationClassPath(String line) {
    List<String> lineJars = classPath(line);
    Set<Path> groups = lineJars.stream().map(ClientLines::group).collect(Collectors.toSet());
    List<String> entries = new ArrayList<>();
    int at = -1;
    for (String entry : TestPaths.applicationClassPath().split(File.pathSeparator)) {
      if (groups.contains(group(entry))) {
        at = at < 0 ? entries.size() : at;
      } else {
        entries.add(entry);
      }
    }
    entries.addAll(at < 0 ? entries.size() : at, lineJars);
    return String.join(File.pathSeparator, entries);
  }

  /** {@code <repository>/<group path>} of {@code <group path>/<artifact>/<version>/<file>.jar}. */
  private static Path group(String jar) {
    Path path = Paths.get(jar).toAbsolutePath().normalize();
    Path version = path.getParent();
    Path artifact = version == null ? null : version.getParent();
    return artifact == null ? path : artifact.getParent();
  }
}
