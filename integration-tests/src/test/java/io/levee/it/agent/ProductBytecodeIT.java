package io.levee.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.it.support.TestPaths;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Everything an application loads from Levee must run on Java 8: no class file above major version
 * 52 in the product jars, except under {@code META-INF/versions/} (multi-release classes a Java 8
 * JVM never reads) and the calls of the JDK's {@code java.net.http} client, compiled for Java 11:
 * no Java 8 class names them, and the agent only defines them beside that module, so a JVM without
 * it never loads them.
 */
class ProductBytecodeIT {
  private static final int JAVA_8 = 52;
  private static final int JAVA_11 = 55;

  /** The agent jar's classes compiled for Java 11, and only those (nested classes included). */
  private static final Pattern JAVA_11_CLASSES =
      Pattern.compile("io/levee/agent/jdkhttp/JdkClientCalls(\\$[A-Za-z0-9]+)?\\.class");

  @Test
  void productJarsHoldOnlyJava8ClassFiles() throws IOException {
    List<Path> jars = new ArrayList<>();
    jars.add(TestPaths.agentJar());
    jars.add(moduleJar("bootstrap", "levee-bootstrap-"));
    jars.add(moduleJar("rules", "levee-rules-"));
    List<String> tooNew = new ArrayList<>();
    List<String> java11 = new ArrayList<>();
    int classes = 0;
    for (Path jar : jars) {
      try (JarFile file = new JarFile(jar.toFile())) {
        for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements(); ) {
          JarEntry entry = e.nextElement();
          String name = entry.getName();
          // module-info is a descriptor, never loaded as a class
          if (!name.endsWith(".class")
              || name.startsWith("META-INF/versions/")
              || name.endsWith("module-info.class")) {
            continue;
          }
          classes++;
          int major = majorVersion(file.getInputStream(entry));
          if (jar.equals(TestPaths.agentJar()) && JAVA_11_CLASSES.matcher(name).matches()) {
            java11.add(name);
            if (major != JAVA_11) {
              tooNew.add(jar.getFileName() + "!/" + name + " (major " + major + ", not 55)");
            }
          } else if (major > JAVA_8) {
            tooNew.add(jar.getFileName() + "!/" + name + " (major " + major + ")");
          }
        }
      }
    }
    assertThat(classes).as("classes in %s", jars).isPositive();
    assertThat(tooNew).as("class files above Java 8").isEmpty();
    assertThat(java11)
        .as("the java.net.http calls, for Java 11")
        .contains("io/levee/agent/jdkhttp/JdkClientCalls.class");
  }

  private static Path moduleJar(String module, String prefix) throws IOException {
    Path target = TestPaths.root().resolve(module).resolve("target");
    try (Stream<Path> files = Files.list(target)) {
      return files
          .filter(p -> p.getFileName().toString().startsWith(prefix))
          .filter(p -> p.getFileName().toString().matches(".*-SNAPSHOT\\.jar|.*\\d\\.jar"))
          .findFirst()
          .orElseThrow(() -> new IllegalStateException("no " + prefix + "*.jar in " + target));
    }
  }

  private static int majorVersion(InputStream in) throws IOException {
    try (DataInputStream data = new DataInputStream(in)) {
      int magic = data.readInt();
      assertThat(magic).isEqualTo(0xCAFEBABE);
      data.readUnsignedShort();
      return data.readUnsignedShort();
    }
  }
}
