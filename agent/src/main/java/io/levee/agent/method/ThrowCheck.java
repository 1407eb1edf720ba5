package io.levee.agent.method;

import io.levee.rules.load.RuleError;
import io.levee.rules.match.MethodPlan;
import io.levee.rules.model.MethodMatch;
import io.levee.rules.model.OnBlock;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * The checks of method resources that need the application's classes, made before rules are put in
 * force (start-up, reload, attach) against the classes loaded then: each method a resource would
 * weave must be able to throw its {@code on-block.throw}, and the resources together may name at
 * most {@link MethodWeaving#MAX_CLASSES} classes. A class that loads later is checked at its first
 * blocked call instead ({@link Thrower}).
 */
final class ThrowCheck {
  private ThrowCheck() {}

  /** {@code loaded}: the classes to check against, the JVM's loaded classes of the moment. */
  static List<RuleError> check(
      Instrumentation inst, Class<?>[] loaded, String file, RuleSet rules, MethodPlan plan) {
    List<RuleError> errors = new ArrayList<RuleError>();
    if (plan.isEmpty()) {
      return errors;
    }
    int[] index = new int[plan.size()];
    boolean[] reported = new boolean[plan.size()];
    for (int k = 0; k < plan.size(); k++) {
      index[k] = indexOf(rules, plan.name(k));
    }
    int named = 0;
    for (Class<?> type : loaded) {
      boolean counted = false;
      try {
        if (!LoadedMethods.candidate(type) || !inst.isModifiableClass(type)) {
          continue;
        }
        for (int k = 0; k < plan.size(); k++) {
          if (!LoadedMethods.matches(plan, k, type)
              || LoadedMethods.woven(plan, k, type).isEmpty()) {
            continue;
          }
          if (!counted) {
            counted = true;
            named++;
          }
          ResourceRule rule = rules.resources.get(index[k]);
          if (!reported[k] && rule.onBlock.exception != null) {
            String problem = problem(rule.onBlock.exception, plan, k, type);
            if (problem != null) {
              reported[k] = true;
              errors.add(at(file, rule.onBlock, index[k], problem));
            }
          }
        }
      } catch (Throwable e) {
        // A class that reflection cannot describe is not woven either.
      }
    }
    if (named > MethodWeaving.MAX_CLASSES) {
      MethodMatch first = plan.match(0).method;
      errors.add(
          new RuleError(
              file,
              Math.max(1, first.line),
              Math.max(1, first.column),
              "resources[" + index[0] + "].match.method",
              "the method resources name "
                  + named
                  + " loaded classes, more than the "
                  + MethodWeaving.MAX_CLASSES
                  + " they may weave; narrow their class patterns (a package, a class name"
                  + " or an interface of your own)"));
    }
    return errors;
  }

  /**
   * Why {@code exception} cannot be thrown from a method of {@code type} that k weaves, or null.
   */
  private static String problem(String exception, MethodPlan plan, int k, Class<?> type) {
    Class<?> thrown;
    try {
      thrown = Class.forName(exception, false, type.getClassLoader());
    } catch (Throwable e) {
      return exception + " is not found from the class loader of " + type.getName();
    }
    if (!Throwable.class.isAssignableFrom(thrown)) {
      return exception + " is not an exception";
    }
    if (java.lang.reflect.Modifier.isAbstract(thrown.getModifiers())) {
      return exception + " is abstract";
    }
    try {
      thrown.getConstructor(String.class);
    } catch (NoSuchMethodException e) {
      return exception + " has no public constructor taking a message";
    }
    if (RuntimeException.class.isAssignableFrom(thrown) || Error.class.isAssignableFrom(thrown)) {
      return null;
    }
    for (Method m : LoadedMethods.woven(plan, k, type)) {
      if (!declares(m, thrown)) {
        return exception
            + " is a checked exception that "
            + LoadedMethods.describe(m)
            + " does not declare; name an unchecked exception or one the method declares";
      }
    }
    return null;
  }

  private static boolean declares(Method m, Class<?> thrown) {
    for (Class<?> declared : m.getExceptionTypes()) {
      if (declared.isAssignableFrom(thrown)) {
        return true;
      }
    }
    return false;
  }

  private static RuleError at(String file, OnBlock onBlock, int resource, String message) {
    return new RuleError(
        file,
        Math.max(1, onBlock.exceptionLine),
        Math.max(1, onBlock.exceptionColumn),
        "resources[" + resource + "].on-block.throw",
        message);
  }

  private static int indexOf(RuleSet rules, String name) {
    for (int i = 0; i < rules.resources.size(); i++) {
      if (rules.resources.get(i).name.equals(name)) {
        return i;
      }
    }
    return 0;
  }
}
