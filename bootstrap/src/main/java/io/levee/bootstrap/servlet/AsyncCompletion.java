package io.levee.bootstrap.servlet;

import io.levee.bootstrap.Faults;
import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.Levee;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Follows an asynchronous servlet request to its end: the handler of a {@link Proxy} implementing
 * the request's own {@code AsyncListener} interface (javax or jakarta, found through the
 * container's class loader), so this java.base-only class can listen without seeing the servlet
 * API.
 *
 * <p>The permit goes back exactly once, at the first of {@code onComplete} (the status is final
 * there) and {@code onError} (some containers, JBoss EAP 6 among them, never complete after an
 * error). {@code onTimeout} only precedes one of them: the container then errors or completes.
 * {@code onStartAsync} re-registers the listener, because a new async cycle drops the listeners of
 * the previous one.
 *
 * <p>The reflective handles of one servlet API (class lookups take the class loader's lock) are
 * resolved once per listener interface and kept in a {@link ClassValue}, so a request only creates
 * its proxy and adds it.
 *
 * <p>Concurrency: events may arrive on any container thread; {@code done} decides which one
 * reports. {@link Api} is immutable and may be computed twice by racing threads, harmlessly.
 */
public final class AsyncCompletion implements InvocationHandler {
  private static final ClassValue<Api> APIS =
      new ClassValue<Api>() {
        @Override
        protected Api computeValue(Class<?> listenerType) {
          try {
            return new Api(listenerType);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
      };

  private final Api api;
  private final Object token;
  private final long startNanos;
  private final Object response;
  private final AtomicBoolean done = new AtomicBoolean();

  private AsyncCompletion(Api api, Object token, long startNanos, Object response) {
    this.api = api;
    this.token = token;
    this.startNanos = startNanos;
    this.response = response;
  }

  /**
   * Adds one listener to {@code asyncContext} that reports the outcome of {@code token} when the
   * request ends. If it cannot be added, reports now rather than hold the permit forever.
   */
  public static void attach(
      Class<?> listenerType, Object asyncContext, Object response, Object token, long startNanos) {
    try {
      Faults.at(Faults.SERVLET_ASYNC);
      Api api = api(listenerType);
      AsyncCompletion handler = new AsyncCompletion(api, token, startNanos, response);
      handler.register(asyncContext, api.proxy.newInstance(handler));
    } catch (Throwable t) {
      Levee.exit(token, startNanos, -1, null);
      HookErrors.report(t);
    }
  }

  static Api api(Class<?> listenerType) {
    return APIS.get(listenerType);
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    String name = method.getName();
    if (method.getDeclaringClass() == Object.class) {
      if (name.equals("equals")) {
        return proxy == args[0];
      }
      return name.equals("hashCode")
          ? (Object) System.identityHashCode(proxy)
          : "levee async listener";
    }
    try {
      if (name.equals("onComplete")) {
        finish(null);
      } else if (name.equals("onError")) {
        Throwable error = (Throwable) api.getThrowable.invoke(args[0]);
        finish(error != null ? error : new IllegalStateException("async request failed"));
      } else if (name.equals("onStartAsync")) {
        register(api.getAsyncContext.invoke(args[0]), proxy);
      }
    } catch (Throwable t) {
      // The end of the request can no longer be followed: report it now rather than hold the
      // permit.
      finish(null);
    }
    return null;
  }

  private void register(Object asyncContext, Object listener) throws Exception {
    api.addListener.invoke(asyncContext, listener);
  }

  private void finish(Throwable error) {
    if (!done.compareAndSet(false, true)) {
      return;
    }
    int status = -1;
    try {
      status = (Integer) api.getStatus.invoke(response);
    } catch (Throwable ignored) {
      // A recycled or wrapped response; the outcome still counts, without a status.
    }
    Levee.exit(token, startNanos, status, error);
  }

  /** The reflective handles of one servlet API, found through its listener interface. */
  static final class Api {
    final Constructor<?> proxy;
    final Method addListener;
    final Method getThrowable;
    final Method getAsyncContext;
    final Method getStatus;

    @SuppressWarnings("deprecation") // Proxy.getProxyClass: the one way to reuse the constructor
    Api(Class<?> listenerType) throws Exception {
      String name = listenerType.getName();
      String api = name.substring(0, name.lastIndexOf('.') + 1);
      ClassLoader loader = listenerType.getClassLoader();
      Class<?> eventType = Class.forName(api + "AsyncEvent", false, loader);
      this.proxy =
          Proxy.getProxyClass(loader, listenerType).getConstructor(InvocationHandler.class);
      this.addListener =
          Class.forName(api + "AsyncContext", false, loader).getMethod("addListener", listenerType);
      this.getThrowable = eventType.getMethod("getThrowable");
      this.getAsyncContext = eventType.getMethod("getAsyncContext");
      this.getStatus =
          Class.forName(api + "http.HttpServletResponse", false, loader).getMethod("getStatus");
    }
  }
}
