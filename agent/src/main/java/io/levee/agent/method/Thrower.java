package io.levee.agent.method;

import java.lang.ref.WeakReference;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.concurrent.RejectedExecutionException;

/**
 * Makes the exception a blocked call of one woven method throws ({@code on-block.throw}), resolved
 * through the method's class loader at its first block: the named class with its {@code (String)}
 * constructor, or, when that cannot be thrown from this method (not found, not a {@code Throwable},
 * no such constructor, or a checked exception the method does not declare), a {@link
 * RejectedExecutionException}, which any method may throw, and {@link #problem} says why.
 *
 * <p>The constructor is held weakly, so that a web application's exception class does not keep its
 * class loader alive after an undeploy; once collected, the next block resolves it again.
 */
final class Thrower {
  final String exception;
  private final WeakReference<Constructor<?>> constructor;

  /** Why the named exception is not thrown, or null when it is. */
  final String problem;

  private Thrower(String exception, Constructor<?> constructor, String problem) {
    this.exception = exception;
    this.constructor = constructor == null ? null : new WeakReference<Constructor<?>>(constructor);
    this.problem = problem;
  }

  /** Whether the constructor was collected, so that the exception must be resolved again. */
  boolean stale() {
    return constructor != null && constructor.get() == null;
  }

  Throwable make(String message) {
    Constructor<?> c = constructor == null ? null : constructor.get();
    if (c != null) {
      try {
        return (Throwable) c.newInstance(message);
      } catch (Throwable e) {
        // Its constructor failed: the call is blocked all the same.
      }
    }
    return new RejectedExecutionException(message);
  }

  static Thrower resolve(MethodSites.Info method, String exception) {
    if (exception.equals(RejectedExecutionException.class.getName())) {
      return new Thrower(exception, null, null);
    }
    ClassLoader loader = method.loader.get();
    Class<?> type;
    try {
      type = Class.forName(exception, false, loader);
    } catch (Throwable e) {
      return refused(exception, "it is not found from the class loader of " + method.className);
    }
    String why = whyNot(type, method.exceptions, loader);
    if (why != null) {
      return refused(exception, why + " " + method.describe());
    }
    if (Modifier.isAbstract(type.getModifiers())) {
      return refused(exception, "it is abstract");
    }
    try {
      Constructor<?> c = type.getConstructor(String.class);
      if (!Modifier.isPublic(type.getModifiers())) {
        c.setAccessible(true);
      }
      return new Thrower(exception, c, null);
    } catch (NoSuchMethodException e) {
      return refused(exception, "it has no public constructor taking a message");
    } catch (RuntimeException e) {
      return refused(exception, "its constructor cannot be called from outside (" + e + ")");
    }
  }

  /**
   * Why {@code type} cannot be thrown from a method declaring {@code declared} (binary names
   * resolved through {@code loader}), ending so that the method's name can follow; null if it can.
   */
  static String whyNot(Class<?> type, String[] declared, ClassLoader loader) {
    if (!Throwable.class.isAssignableFrom(type)) {
      return "it is not an exception, so it cannot be thrown from";
    }
    if (RuntimeException.class.isAssignableFrom(type) || Error.class.isAssignableFrom(type)) {
      return null;
    }
    for (String name : declared) {
      try {
        if (Class.forName(name, false, loader).isAssignableFrom(type)) {
          return null;
        }
      } catch (Throwable e) {
        // A declared exception that cannot be loaded does not allow this one.
      }
    }
    return "it is a checked exception that is not declared by";
  }

  private static Thrower refused(String exception, String why) {
    return new Thrower(
        exception,
        null,
        "on-block.throw "
            + exception
            + " cannot be thrown: "
            + why
            + "; threw a "
            + RejectedExecutionException.class.getName()
            + " instead");
  }
}
