package io.levee.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import net.bytebuddy.jar.asm.ClassReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The table of {@link JdkTypes} against the runtime image of the JDK the tests run on: every class
 * file of every module, its ancestry read with ASM's reader (not the agent's {@link ClassHeader}),
 * gives the JDK types that reach each target API. The JDK 25 variant of this check runs in {@code
 * JdkToolsCorpusIT}, which reads the whole image under the agent.
 */
class JdkTypesTest {
  private static final Map<String, List<String>> ANCESTORS = new HashMap<>();
  private static final Set<String> PACKAGES = new HashSet<>();

  @BeforeAll
  static void readTheImage() throws IOException {
    JdkTypes.load();
    FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
    try (Stream<Path> files = Files.walk(jrt.getPath("/modules"))) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String path = file.toString();
        if (path.endsWith(".class") && !path.endsWith("module-info.class")) {
          ClassReader reader = new ClassReader(Files.readAllBytes(file));
          List<String> ancestors = new ArrayList<>();
          if (reader.getSuperName() != null) {
            ancestors.add(reader.getSuperName().replace('/', '.'));
          }
          for (String i : reader.getInterfaces()) {
            ancestors.add(i.replace('/', '.'));
          }
          String name = reader.getClassName().replace('/', '.');
          ANCESTORS.put(name, ancestors);
          PACKAGES.add(name.substring(0, name.lastIndexOf('.')));
        }
      }
    }
  }

  @Test
  void theTableHoldsExactlyTheImagesTypesThatReachATargetApi() {
    Map<String, Integer> expected = new TreeMap<>();
    for (String type : ANCESTORS.keySet()) {
      int mask = reach(type, new HashSet<>());
      if (mask != 0) {
        expected.put(type, mask);
      }
    }
    Map<String, Integer> table = new TreeMap<>();
    for (String type : JdkTypes.names()) {
      table.put(type, JdkTypes.mask(type));
    }

    assertThat(expected).as("found in the image").isNotEmpty();
    assertThat(table).isEqualTo(expected);
  }

  @Test
  void everyPackageOfTheImageIsTheJdks() {
    assertThat(PACKAGES).hasSizeGreaterThan(500);
    for (String pkg : PACKAGES) {
      assertThat(JdkTypes.isJdk(pkg + ".Any")).as(pkg).isTrue();
    }
  }

  @Test
  void theApplicationsApisAndLibrariesAreNotTheJdks() {
    assertThat(JdkTypes.isJdk("javax.servlet.Servlet")).isFalse();
    assertThat(JdkTypes.isJdk("jakarta.servlet.Filter")).isFalse();
    assertThat(JdkTypes.isJdk("org.h2.Driver")).isFalse();
    assertThat(JdkTypes.isJdk("com.sun.jersey.api.client.Client")).isFalse();
    assertThat(JdkTypes.isJdk("Unnamed")).isFalse();
    assertThat(JdkTypes.isJdk("java.sql.Statement")).isTrue();
    assertThat(JdkTypes.isJdk("sun.net.www.protocol.jrt.JavaRuntimeURLConnection")).isTrue();
  }

  private static int reach(String type, Set<String> seen) {
    if (!seen.add(type)) {
      return 0;
    }
    int mask = 0;
    for (int i = 0; i < SuperTypes.APIS.length; i++) {
      if (SuperTypes.APIS[i].equals(type)) {
        mask |= 1 << i;
      }
    }
    for (String ancestor : ANCESTORS.getOrDefault(type, List.of())) {
      mask |= reach(ancestor, seen);
    }
    return mask;
  }
}
