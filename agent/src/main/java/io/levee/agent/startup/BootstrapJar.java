package io.levee.agent.startup;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.util.jar.JarFile;

/**
 * Puts the bridge ({@code io.levee.bootstrap}) into the boot class loader. The bridge ships inside
 * the agent jar as the nested {@code levee-bootstrap.jar}, never as plain classes: the agent jar is
 * on the system class path, and a copy of the bridge there would split it in two (code woven into
 * JDK classes sees the boot copy, the agent would fill the other).
 *
 * <p>A jar appended to the boot search path must be a file, so the nested jar is copied to a
 * temporary file first. The file stays open (the JVM reads it lazily) and is deleted when the JVM
 * exits.
 */
final class BootstrapJar {
  static final String RESOURCE = "levee-bootstrap.jar";
  private static final String PROBE = "io.levee.bootstrap.Levee";

  private BootstrapJar() {}

  static void appendTo(Instrumentation inst) throws IOException {
    if (alreadyInBootLoader()) {
      return;
    }
    InputStream in = BootstrapJar.class.getClassLoader().getResourceAsStream(RESOURCE);
    if (in == null) {
      throw new IOException(RESOURCE + " is missing from the agent jar");
    }
    File file = File.createTempFile("levee-bootstrap-", ".jar");
    file.deleteOnExit();
    try {
      copy(in, file);
    } finally {
      in.close();
    }
    inst.appendToBootstrapClassLoaderSearch(new JarFile(file));
  }

  /**
   * True after an earlier start (premain, then an attach) or when the JVM was started with the
   * bridge.
   */
  private static boolean alreadyInBootLoader() {
    try {
      Class.forName(PROBE, false, null);
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  private static void copy(InputStream in, File file) throws IOException {
    OutputStream out = new FileOutputStream(file);
    try {
      byte[] buffer = new byte[8192];
      int n;
      while ((n = in.read(buffer)) > 0) {
        out.write(buffer, 0, n);
      }
    } finally {
      out.close();
    }
  }
}
