package io.levee.agent.method;

import java.lang.reflect.Constructor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Makes the exception a blocked call of one woven method throws ({@code on-block.throw}), resolved
 * through the method's class loader at its first block: the named class with its {@code (String)}
 * constructor, or, when that cannot be thrown from this method (not found, not a {@code Throwable},
 * no such constructor, or a checked exception the method does not declare), a {@link
 * RejectedExecutionException}, which any method may throw, and {@link #problem} says why.
 */
final class Thrower {
  final String exception;
  private final Constructor<?> constructor;

  /** Why the named exception is not thrown, or null when it is. */
  final String problem;

  private Thrower(String exception, Constructor<?> constructor, String problem) {
    this.exception = exception;
    this.constructor = constructor;
    this.problem = problem;
  }

  Throwable make(String message) {
    if (constructor != null) {
      try {
        return (Throwable) constructor.newInstance(message);
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
    try {
      return new Thrower(exception, type.getConstructor(String.class), null);
    } catch (NoSuchMethodException e) {
      return refused(exception, "it has no public constructor taking a message");
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
