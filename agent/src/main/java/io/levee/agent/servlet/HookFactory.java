package io.levee.agent.servlet;

import io.levee.bootstrap.ServletHook;
import io.levee.bootstrap.ServletHooks;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Makes the servlet hook for the classes of one class loader: the hook class (compiled against the
 * servlet API, shipped in the agent jar) is defined in a small loader of its own whose parent is the
 * application's, so its references to {@code javax.servlet} or {@code jakarta.servlet} resolve to the
 * classes the application uses, and those to the bridge to the boot loader. Which javax hook depends
 * on what the loader can see: servlet 3.0 added dispatcher types and async.
 *
 * <p>One hook per loader and API, whichever of its classes asks first. The map holds loaders weakly and
 * hooks weakly (a hook's loader has the application's loader as its parent, so holding it strongly
 * would keep the key alive); the woven classes' {@code ClassValue} entries keep each hook alive for as
 * long as they are.
 */
final class HookFactory extends ServletHooks.Factory {
  private static final String JAVAX = "io.levee.agent.servlet.JavaxServletHook";
  private static final String JAVAX_25 = "io.levee.agent.servlet.Javax25ServletHook";
  private static final String JAKARTA = "io.levee.agent.servlet.JakartaServletHook";

  private final Map<ClassLoader, Map<String, WeakReference<ServletHook>>> hooks =
      new WeakHashMap<ClassLoader, Map<String, WeakReference<ServletHook>>>();

  @Override
  public ServletHook create(Class<?> site, int api) {
    ClassLoader loader = site.getClassLoader();
    if (loader == null) {
      return null;
    }
    String name =
        api == ServletHooks.JAKARTA
            ? JAKARTA
            : loader.getResource("javax/servlet/AsyncContext.class") != null ? JAVAX : JAVAX_25;
    synchronized (hooks) {
      Map<String, WeakReference<ServletHook>> ofLoader = hooks.get(loader);
      if (ofLoader == null) {
        ofLoader = new HashMap<String, WeakReference<ServletHook>>(4);
        hooks.put(loader, ofLoader);
      }
      WeakReference<ServletHook> known = ofLoader.get(name);
      ServletHook hook = known == null ? null : known.get();
      if (hook == null) {
        hook = define(loader, name);
        ofLoader.put(name, new WeakReference<ServletHook>(hook));
      }
      return hook;
    }
  }

  private static ServletHook define(ClassLoader parent, String name) {
    try {
      Class<?> type = new HookLoader(parent, name, classFile(name)).loadClass(name);
      return (ServletHook) type.getDeclaredConstructor().newInstance();
    } catch (Exception e) {
      throw new IllegalStateException("cannot define " + name + " for " + parent, e);
    }
  }

  private static byte[] classFile(String name) throws IOException {
    InputStream in =
        HookFactory.class.getClassLoader().getResourceAsStream(name.replace('.', '/') + ".class");
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

  /** Defines one class itself; everything else comes from the application's loader. */
  private static final class HookLoader extends ClassLoader {
    private final String name;
    private final byte[] classFile;

    HookLoader(ClassLoader parent, String name, byte[] classFile) {
      super(parent);
      this.name = name;
      this.classFile = classFile;
    }

    @Override
    protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
      if (!className.equals(name)) {
        return super.loadClass(className, resolve);
      }
      synchronized (this) {
        Class<?> c = findLoadedClass(className);
        return c != null ? c : defineClass(className, classFile, 0, classFile.length);
      }
    }
  }
}
