package io.levee.agent.servlet;

import io.levee.agent.instrument.CallsLoader;
import io.levee.bootstrap.servlet.ServletCalls;
import io.levee.bootstrap.servlet.ServletHooks;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Makes the servlet calls for the classes of one class loader: {@link JavaxServletCalls} (compiled
 * against javax.servlet, shipped in the agent jar), or its jakarta flavour ({@link
 * JakartaFlavour}), is defined in a small loader of its own whose parent is the application's, so
 * its references to {@code javax.servlet} or {@code jakarta.servlet} resolve to the classes the
 * application uses, and those to the bridge to the boot loader. Whether the javax calls may use
 * servlet 3.0 depends on what the loader can see: 3.0 added dispatcher types and async.
 *
 * <p>One instance per loader and flavour, whichever of its classes asks first. The map holds
 * loaders weakly and calls weakly (a defined class's loader has the application's loader as its
 * parent, so holding it strongly would keep the key alive); the woven classes' {@code ClassValue}
 * entries keep each instance alive for as long as they are.
 */
final class ServletCallsFactory extends ServletHooks.Factory {
  private static final String JAVAX = "io.levee.agent.servlet.JavaxServletCalls";
  static final String JAKARTA = "io.levee.agent.servlet.JakartaServletCalls";

  /** The servlet APIs the calls are made for. */
  private enum Flavour {
    JAVAX_25,
    JAVAX_30,
    JAKARTA
  }

  private final Map<ClassLoader, Map<Flavour, WeakReference<ServletCalls>>> made =
      new WeakHashMap<ClassLoader, Map<Flavour, WeakReference<ServletCalls>>>();

  @Override
  public ServletCalls create(Class<?> site, int api) {
    ClassLoader loader = site.getClassLoader();
    if (loader == null) {
      return null;
    }
    Flavour flavour =
        api == ServletHooks.JAKARTA
            ? Flavour.JAKARTA
            : loader.getResource("javax/servlet/AsyncContext.class") != null
                ? Flavour.JAVAX_30
                : Flavour.JAVAX_25;
    synchronized (made) {
      Map<Flavour, WeakReference<ServletCalls>> ofLoader = made.get(loader);
      if (ofLoader == null) {
        ofLoader = new HashMap<Flavour, WeakReference<ServletCalls>>(4);
        made.put(loader, ofLoader);
      }
      WeakReference<ServletCalls> known = ofLoader.get(flavour);
      ServletCalls calls = known == null ? null : known.get();
      if (calls == null) {
        calls = define(loader, flavour);
        calls.readKeysWith(new ServletKeys(calls));
        ofLoader.put(flavour, new WeakReference<ServletCalls>(calls));
      }
      return calls;
    }
  }

  private static ServletCalls define(ClassLoader parent, Flavour flavour) {
    try {
      byte[] javax = CallsLoader.classFile(JAVAX);
      boolean jakarta = flavour == Flavour.JAKARTA;
      String name = jakarta ? JAKARTA : JAVAX;
      byte[] classFile =
          jakarta ? JakartaFlavour.of(javax, internal(JAVAX), internal(JAKARTA)) : javax;
      Class<?> type = CallsLoader.define(parent, name, classFile);
      return (ServletCalls)
          type.getDeclaredConstructor(boolean.class).newInstance(flavour != Flavour.JAVAX_25);
    } catch (Exception e) {
      throw new IllegalStateException("cannot define " + flavour + " for " + parent, e);
    }
  }

  private static String internal(String name) {
    return name.replace('.', '/');
  }
}
