package io.levee.it.corpus.containers;

import io.levee.it.corpus.Way;
import io.levee.it.support.Jdk;
import io.levee.it.support.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** A container's unpacked distribution, started fresh for each {@link Way}. */
interface Distribution {
  /**
   * The containers' JVM options besides the agent's, the same every way: a small serial heap, as
   * the other forked applications have, and only the C1 compiler, which halves Jasper's first
   * compilation on a busy 2-core machine. The corpus compares behaviour, not speed.
   */
  List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  /** The distribution's name and version, e.g. {@code apache-tomcat-10.1.59}. */
  String name();

  /**
   * Starts the container on {@code jdk} with a scratch base of its own, the agent as {@code way}
   * says with {@code agentOptions} added to the way's.
   */
  Launched launch(Way way, String subject, Jdk jdk, List<String> agentOptions);

  /**
   * The one distribution unpacked by the build whose directory name starts with {@code prefix} (the
   * pom's corpus-containers block puts them in {@code target/containers}).
   */
  static Path unpacked(String prefix) {
    Path dir = TestPaths.workDir().getParent().resolve("containers");
    try (Stream<Path> all = Files.list(dir)) {
      List<Path> found =
          all.filter(p -> p.getFileName().toString().startsWith(prefix))
              .collect(Collectors.toList());
      if (found.size() != 1) {
        throw new IllegalStateException(
            "expected one " + prefix + "* in " + dir + " (run `mvn verify`), found " + found);
      }
      return found.get(0).toAbsolutePath();
    } catch (IOException e) {
      throw new UncheckedIOException("the distributions are not unpacked in " + dir, e);
    }
  }
}
