package io.levee.agent.instrument;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import net.bytebuddy.dynamic.ClassFileLocator;

/**
 * The class files of the bridge, for ByteBuddy to describe the bridge types that advice names
 * ({@code skipOn = Blocked.class}, {@code Levee.exit}).
 *
 * <p>Because a jar appended with {@code appendToBootstrapClassLoaderSearch} adds classes to the boot
 * loader but not resources, {@code getResource("io/levee/bootstrap/Blocked.class")} finds nothing and
 * advice that names a bridge type would fail with "Type not found". The nested
 * {@code levee-bootstrap.jar} the bridge ships in is read once into memory instead (a few dozen
 * small classes).
 */
final class BridgeClassFiles {
  private static final String RESOURCE = "levee-bootstrap.jar";

  private BridgeClassFiles() {}

  /** A locator over the nested bridge jar, or {@link ClassFileLocator.NoOp} when there is none. */
  static ClassFileLocator locator(ClassLoader agentLoader) {
    InputStream in =
        agentLoader == null
            ? ClassLoader.getSystemResourceAsStream(RESOURCE)
            : agentLoader.getResourceAsStream(RESOURCE);
    if (in == null) {
      // Not packaged (the agent's own tests put the bridge on -Xbootclasspath/a instead).
      return ClassFileLocator.NoOp.INSTANCE;
    }
    try {
      return new ClassFileLocator.Simple(read(in));
    } catch (IOException e) {
      return ClassFileLocator.NoOp.INSTANCE;
    } finally {
      try {
        in.close();
      } catch (IOException ignored) {
        // Read already; nothing to do.
      }
    }
  }

  private static Map<String, byte[]> read(InputStream in) throws IOException {
    Map<String, byte[]> classes = new HashMap<String, byte[]>();
    JarInputStream jar = new JarInputStream(in);
    byte[] buffer = new byte[8192];
    for (JarEntry e = jar.getNextJarEntry(); e != null; e = jar.getNextJarEntry()) {
      String name = e.getName();
      if (!name.endsWith(".class") || name.startsWith("META-INF/")) {
        continue;
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      int n;
      while ((n = jar.read(buffer)) > 0) {
        bytes.write(buffer, 0, n);
      }
      String binaryName = name.substring(0, name.length() - ".class".length()).replace('/', '.');
      classes.put(binaryName, bytes.toByteArray());
    }
    return classes;
  }
}
