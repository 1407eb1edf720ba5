package io.levee.it.corpus.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The corpus's small webapp for Jetty, packed as a WAR that Jetty deploys (unpacking it as it would
 * any application's): its {@code web.xml} and JSP from {@code src/test/resources/corpus-webapp},
 * its classes (package {@code corpus.webapp.ee8} or {@code corpus.webapp.ee10}, compiled against
 * that servlet API; the pom generates the ee10 sources from the ee8 ones) copied from the test
 * classes. The package is outside {@code io.levee} on purpose: the agent never weaves its own
 * package, and the webapp must look like anyone's application to it.
 */
final class CorpusWebapp {
  private CorpusWebapp() {}

  /**
   * Packs the webapp for {@code environment} ({@code ee8} or {@code ee10}) into {@code war}, laid
   * out first in a scratch directory of {@code subject}'s own (subjects may run side by side).
   */
  static void pack(String environment, String subject, Path war) {
    try {
      Path dir = Scratch.fresh(subject + "-webapp");
      layOut(environment, dir);
      try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(war));
          Stream<Path> files = Files.walk(dir)) {
        for (Path file : (Iterable<Path>) files.sorted()::iterator) {
          if (Files.isRegularFile(file)) {
            zip.putNextEntry(new ZipEntry(dir.relativize(file).toString().replace('\\', '/')));
            Files.copy(file, zip);
            zip.closeEntry();
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void layOut(String environment, Path dir) {
    Path classes = testClasses();
    Scratch.copyTree(classes.resolve("corpus-webapp/common"), dir);
    Scratch.copyTree(classes.resolve("corpus-webapp/" + environment), dir);
    String pkg = "corpus/webapp/" + environment;
    Scratch.copyTree(classes.resolve(pkg), dir.resolve("WEB-INF/classes").resolve(pkg));
  }

  private static Path testClasses() {
    try {
      return Path.of(
          CorpusWebapp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
