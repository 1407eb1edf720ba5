package io.levee.it.corpus.containers;

import java.net.URISyntaxException;
import java.nio.file.Path;

/**
 * The corpus's small webapp for Jetty, laid out as an exploded WAR: its {@code web.xml} and JSP
 * from {@code src/test/resources/corpus-webapp}, its classes (package {@code corpus.webapp.ee8} or
 * {@code corpus.webapp.ee10}, compiled against that servlet API) copied from the test classes. The
 * package is outside {@code io.levee} on purpose: the agent never weaves its own package, and the
 * webapp must look like anyone's application to it.
 */
final class CorpusWebapp {
  private CorpusWebapp() {}

  /** Lays out the webapp for {@code environment} ({@code ee8} or {@code ee10}) in {@code dir}. */
  static void layOut(String environment, Path dir) {
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
