package io.levee.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.TestPaths;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The agent jar says under which license it comes and names every library it carries: its {@code
 * META-INF/LICENSE} is Levee's (Apache 2.0), not one of a shaded library's, and its {@code
 * META-INF/NOTICE} names each library relocated under {@code io/levee/shaded/} by its group, so a
 * library added to the jar without its notice fails here.
 */
class AgentJarNoticeIT {
  private static final String SHADED = "io/levee/shaded/";

  @Test
  void theJarCarriesLeveesLicenseAndANoticeNamingEachShadedLibrary() throws IOException {
    try (JarFile jar = new JarFile(TestPaths.agentJar().toFile())) {
      String license = read(jar, "META-INF/LICENSE");
      String notice = read(jar, "META-INF/NOTICE");
      assertThat(license).contains("Apache License", "Version 2.0, January 2004");
      assertThat(notice).startsWith("Levee\n");
      Set<String> groups = new TreeSet<>();
      for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
        String name = e.nextElement().getName();
        String[] parts =
            name.startsWith(SHADED) ? name.substring(SHADED.length()).split("/") : null;
        if (parts != null && parts.length > 2) {
          groups.add(parts[0] + "." + parts[1]);
        }
      }
      assertThat(groups).as("libraries shaded into the jar").contains("net.bytebuddy", "org.yaml");
      String lower = notice.toLowerCase(Locale.ROOT);
      assertThat(groups)
          .as("every shaded group named in META-INF/NOTICE")
          .allSatisfy(g -> assertThat(lower).contains(g.toLowerCase(Locale.ROOT)));
    }
  }

  private static String read(JarFile jar, String name) throws IOException {
    JarEntry entry = jar.getJarEntry(name);
    assertThat(entry).as(name).isNotNull();
    try (InputStream in = jar.getInputStream(entry)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
