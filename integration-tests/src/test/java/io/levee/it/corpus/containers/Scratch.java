package io.levee.it.corpus.containers;

import io.levee.it.corpus.Way;
import io.levee.it.support.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/** Scratch directories and ports of the container runs: one fresh of each per run. */
public final class Scratch {
  private Scratch() {}

  /** An empty directory for {@code name}, under the corpus's work directory. */
  static Path fresh(String name) {
    Path dir = Way.dir().resolve("containers").resolve(name);
    try {
      if (Files.exists(dir)) {
        try (Stream<Path> all = Files.walk(dir)) {
          all.sorted(Comparator.reverseOrder()).forEach(Scratch::delete);
        }
      }
      return Files.createDirectories(dir).toAbsolutePath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Copies the tree {@code from} to {@code to}, keeping file modes (the launch scripts). */
  public static void copyTree(Path from, Path to) {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path source : (Iterable<Path>) all::iterator) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A port free on 127.0.0.1 now; the container binds it moments later. */
  static int freePort() {
    return FreePorts.next();
  }

  private static void delete(Path path) {
    try {
      Files.delete(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
