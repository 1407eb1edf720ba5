package io.levee.agent.instrument;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A loader that defines one class of the agent jar, and its nested classes, beside a library the
 * bridge cannot see: its parent is the library's loader, so the class's references to the library
 * resolve to the copy the application uses, and those to the bridge to the boot loader. The class
 * is compiled against the library but never loaded by the agent's own loader, where the library is
 * absent. A nested class (a response type the calls build, say) is read from the agent jar when the
 * class first needs it, so that it shares the loader, and with it the package and nest, of its
 * host.
 */
public final class CallsLoader extends ClassLoader {
  private final String name;
  private final byte[] classFile;

  private CallsLoader(ClassLoader parent, String name, byte[] classFile) {
    super(parent);
    this.name = name;
    this.classFile = classFile;
  }

  /** Defines {@code name} from {@code classFile} in a new loader whose parent is {@code parent}. */
  public static Class<?> define(ClassLoader parent, String name, byte[] classFile)
      throws ClassNotFoundException {
    return new CallsLoader(parent, name, classFile).loadClass(name);
  }

  /** The class file of the agent's class {@code name}, read from the agent jar. */
  public static byte[] classFile(String name) throws IOException {
    InputStream in =
        CallsLoader.class.getClassLoader().getResourceAsStream(name.replace('.', '/') + ".class");
    if (in == null) {
      throw new IOException(name + " is missing from the agent jar");
    }
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
      byte[] buffer = new byte[4096];
      int n;
      while ((n = in.read(buffer)) != -1) {
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    } finally {
      in.close();
    }
  }

  @Override
  protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
    boolean nested = className.startsWith(name + "$");
    if (!nested && !className.equals(name)) {
      return super.loadClass(className, resolve);
    }
    synchronized (this) {
      Class<?> c = findLoadedClass(className);
      if (c != null) {
        return c;
      }
      byte[] bytes = nested ? nestedClassFile(className) : classFile;
      return defineClass(className, bytes, 0, bytes.length);
    }
  }

  private static byte[] nestedClassFile(String className) throws ClassNotFoundException {
    try {
      return classFile(className);
    } catch (IOException e) {
      throw new ClassNotFoundException(className, e);
    }
  }
}
