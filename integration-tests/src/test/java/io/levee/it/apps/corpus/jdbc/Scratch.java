package io.levee.it.apps.corpus.jdbc;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The corpus JVM's own temporary folder (Derby's home, SQLite's file), deleted when it exits. */
final class Scratch {
  private static Path dir;

  private Scratch() {}

  static synchronized Path dir() {
    if (dir == null) {
      try {
        dir = Files.createTempDirectory("levee-jdbc-corpus");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(Scratch::delete));
    }
    return dir;
  }

  private static void delete() {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
    } catch (IOException ignored) {
      // A temporary folder the system cleans anyway.
    }
  }
}
