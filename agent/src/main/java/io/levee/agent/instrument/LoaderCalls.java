package io.levee.agent.instrument;

import io.levee.bootstrap.SiteCalls;
import java.lang.ref.WeakReference;
import java.util.WeakHashMap;

/**
 * Makes an integration's calls for the woven classes of each loader: the agent class {@code
 * className}, compiled against the library, defined beside the loader's copy of it ({@link
 * CallsLoader}) and made with its no-argument constructor. One instance per loader, whichever of
 * its classes asks first; loaders and instances are held weakly (the defined class's loader has the
 * application's as its parent, so holding it strongly would keep the key alive), and the woven
 * classes' {@code ClassValue} entries keep each instance alive for as long as they are.
 *
 * @param <T> the calls interface the class implements, declared in the bridge
 */
public final class LoaderCalls<T> extends SiteCalls.Factory<T> {
  private final Class<T> type;
  private final String className;
  private final WeakHashMap<ClassLoader, WeakReference<T>> made =
      new WeakHashMap<ClassLoader, WeakReference<T>>();

  public LoaderCalls(Class<T> type, String className) {
    this.type = type;
    this.className = className;
  }

  @Override
  public T create(Class<?> site) {
    ClassLoader loader = site.getClassLoader();
    if (loader == null) {
      return null;
    }
    synchronized (made) {
      WeakReference<T> known = made.get(loader);
      T calls = known == null ? null : known.get();
      if (calls == null) {
        calls = define(loader);
        made.put(loader, new WeakReference<T>(calls));
      }
      return calls;
    }
  }

  private T define(ClassLoader parent) {
    try {
      Class<?> defined = CallsLoader.define(parent, className, CallsLoader.classFile(className));
      return type.cast(defined.getDeclaredConstructor().newInstance());
    } catch (Exception e) {
      throw new IllegalStateException("cannot define " + className + " for " + parent, e);
    } catch (LinkageError e) {
      throw new IllegalStateException("cannot define " + className + " for " + parent, e);
    }
  }
}
