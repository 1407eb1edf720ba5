package io.levee.it.corpus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What one Maven build of the corpus project shows: its exit status, its console with what differs
 * from run to run taken out, and what it built (every class and resource with a digest of its
 * bytes, the jar's entries and a digest of the whole jar, which the project makes reproducible).
 */
record MavenBuild(
    int exit,
    List<String> console,
    List<String> errors,
    List<String> outputs,
    List<String> jarEntries,
    String jarSha256) {

  /** Surefire's per-class test time, e.g. {@code Time elapsed: 0.202 s}. */
  private static final Pattern ELAPSED = Pattern.compile("Time elapsed: [0-9.,]+ s");

  /** Lines that only say when and how long: {@code Total time: 9.951 s}, {@code Finished at:}. */
  private static final Pattern CLOCK_LINE =
      Pattern.compile("^\\[INFO\\] (Total time|Finished at):");

  static MavenBuild of(Outcome outcome, Path project) {
    Path jar = project.resolve("target/greeter-1.0.jar");
    return new MavenBuild(
        outcome.exit(),
        normalise(outcome.stdout(), project),
        normalise(outcome.stderr(), project),
        outputs(project.resolve("target")),
        Files.exists(jar) ? entries(jar) : List.of(),
        Files.exists(jar) ? sha256(jar) : "");
  }

  /**
   * Without the clock and with the project's directory (each way builds its own copy) as {@code
   * <project>}; the JVM's note about the boot class path is the agent's one forgiven difference.
   */
  static List<String> normalise(String text, Path project) {
    String here = project.toAbsolutePath().toString();
    return Transparency.withoutJvmNote(text)
        .lines()
        .filter(l -> !CLOCK_LINE.matcher(l).find())
        .map(l -> ELAPSED.matcher(l.replace(here, "<project>")).replaceAll("Time elapsed: <t> s"))
        .collect(Collectors.toList());
  }

  /** The compiled classes and copied resources, each with its bytes' digest. */
  private static List<String> outputs(Path target) {
    List<Path> folders = List.of(target.resolve("classes"), target.resolve("test-classes"));
    return folders.stream()
        .filter(Files::isDirectory)
        .flatMap(MavenBuild::files)
        .map(f -> target.relativize(f) + " " + sha256(f))
        .sorted()
        .collect(Collectors.toList());
  }

  private static Stream<Path> files(Path folder) {
    try (Stream<Path> walk = Files.walk(folder)) {
      return walk.filter(Files::isRegularFile).collect(Collectors.toList()).stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> entries(Path jar) {
    try (JarFile file = new JarFile(jar.toFile())) {
      return file.stream()
          .map(e -> e.getName() + " crc=" + Long.toHexString(e.getCrc()))
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String sha256(Path file) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
