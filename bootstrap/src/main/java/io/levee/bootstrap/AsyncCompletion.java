package io.levee.bootstrap;

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
 * <p>Concurrency: events may arrive on any container thread; {@code done} decides which one
 * reports.
 */
public final class AsyncCompletion implements InvocationHandler {
  private final Object token;
  private final long startNanos;
  private final Object response;
  private final Class<?> listenerType;
  private final Class<?> contextType;
  private final Class<?> eventType;
  private final Method getStatus;
  private final AtomicBoolean done = new AtomicBoolean();

  private AsyncCompletion(
      Object token, long startNanos, Object response, Class<?> listenerType, ClassLoader loader)
      throws Exception {
    String api = listenerType.getName().substring(0, listenerType.getName().lastIndexOf('.') + 1);
    this.token = token;
    this.startNanos = startNanos;
    this.response = response;
    this.listenerType = listenerType;
    this.contextType = Class.forName(api + "AsyncContext", false, loader);
    this.eventType = Class.forName(api + "AsyncEvent", false, loader);
    this.getStatus =
        Class.forName(api + "http.HttpServletResponse", false, loader).getMethod("getStatus");
  }

  /**
   * Adds one listener to {@code asyncContext} that reports the outcome of {@code token} when the
   * request ends. If it cannot be added, reports now rather than hold the permit forever.
   */
  public static void attach(
      Class<?> listenerType, Object asyncContext, Object response, Object token, long startNanos) {
    try {
      ClassLoader loader = listenerType.getClassLoader();
      AsyncCompletion handler =
          new AsyncCompletion(token, startNanos, response, listenerType, loader);
      Object listener = Proxy.newProxyInstance(loader, new Class<?>[] {listenerType}, handler);
      handler.register(asyncContext, listener);
    } catch (Throwable t) {
      Levee.exit(token, startNanos, -1, null);
    }
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
        Throwable error = (Throwable) eventType.getMethod("getThrowable").invoke(args[0]);
        finish(error != null ? error : new IllegalStateException("async request failed"));
      } else if (name.equals("onStartAsync")) {
        register(eventType.getMethod("getAsyncContext").invoke(args[0]), proxy);
      }
    } catch (Throwable t) {
      // The end of the request can no longer be followed: report it now rather than hold the
      // permit.
      finish(null);
    }
    return null;
  }

  private void register(Object asyncContext, Object listener) throws Exception {
    contextType.getMethod("addListener", listenerType).invoke(asyncContext, listener);
  }

  private void finish(Throwable error) {
    if (!done.compareAndSet(false, true)) {
      return;
    }
    int status = -1;
    try {
      status = (Integer) getStatus.invoke(response);
    } catch (Throwable ignored) {
      // A recycled or wrapped response; the outcome still counts, without a status.
    }
    Levee.exit(token, startNanos, status, error);
  }
}
