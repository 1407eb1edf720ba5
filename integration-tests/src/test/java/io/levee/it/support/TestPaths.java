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
import java.util.stream.Collectors;

/** Where the build put things, as the failsafe configuration in the pom passes them. */
public final class TestPaths {
  private TestPaths() {}

  /** The packaged agent; fails the test with a clear message when it has not been built. */
  public static Path agentJar() {
    Path jar = Paths.get(System.getProperty("levee.agent.jar", "../agent/target/levee-agent.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "the agent jar "
              + jar.toAbsolutePath().normalize()
              + " is not built; run `mvn verify` from the root");
    }
    return jar.toAbsolutePath().normalize();
  }

  /** The repository root (parent of this module). */
  public static Path root() {
    return Paths.get(System.getProperty("levee.root", "..")).toAbsolutePath().normalize();
  }

  public static Path workDir() {
    Path dir = Paths.get(System.getProperty("levee.work.dir", "target/it-work"));
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The class path of a test application: this module's test classes and dependencies, without any
   * Levee jar or class folder, so that the only Levee code in the application JVM is the agent's.
   */
  public static String applicationClassPath() {
    List<String> entries = new ArrayList<>();
    String file = System.getProperty("levee.app.classpath");
    String classes = System.getProperty("levee.test.classes");
    if (file != null && classes != null) {
      entries.add(classes);
      entries.addAll(Arrays.asList(readClassPathFile(Paths.get(file)).split(File.pathSeparator)));
    } else {
      entries.addAll(
          Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator)));
    }
    return entries.stream()
        .filter(e -> !e.isBlank() && !isLevee(e))
        .collect(Collectors.joining(File.pathSeparator));
  }

  private static boolean isLevee(String entry) {
    Path path = Paths.get(entry).toAbsolutePath().normalize();
    String fileName = path.getFileName() == null ? "" : path.getFileName().toString();
    Path root = root();
    return fileName.startsWith("levee-")
        || path.startsWith(root.resolve("bootstrap"))
        || path.startsWith(root.resolve("rules"))
        || path.startsWith(root.resolve("agent"))
        || path.startsWith(root.resolve("testkit"));
  }

  private static String readClassPathFile(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the application class path " + file, e);
    }
  }
}
