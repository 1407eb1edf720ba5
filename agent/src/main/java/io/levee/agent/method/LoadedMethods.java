package io.levee.agent.method;

import io.levee.rules.match.MethodPlan;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The same matching as the weaver's, on classes already loaded, by reflection: which loaded classes
 * a reload, an attach or a detach must retransform, and which of their methods a rule would weave
 * (for the checks made before rules are applied). Runs outside any class definition, so it may load
 * what reflection loads.
 */
final class LoadedMethods {
  private LoadedMethods() {}

  /** Whether the class (not an interface) can carry woven methods at all. */
  static boolean candidate(Class<?> type) {
    return !type.isInterface()
        && !type.isArray()
        && !type.isPrimitive()
        && !type.isAnnotation()
        && type.getClassLoader() != null
        && !MethodWeaving.isJdk(type.getName())
        && !MethodWeaving.never(type.getName().replace('.', '/'));
  }

  /** Whether resource {@code k}'s class patterns and annotation take {@code type}. */
  static boolean matches(MethodPlan plan, int k, Class<?> type) {
    return !named(plan, k, type).isEmpty() && annotated(plan.annotated(k), type);
  }

  /** {@code type} and those of its super types whose names resource {@code k} names. */
  static List<Class<?>> named(MethodPlan plan, int k, Class<?> type) {
    List<Class<?>> named = new ArrayList<Class<?>>(2);
    for (Class<?> t : typeAndAncestors(type)) {
      if (plan.names(k, t.getName())) {
        named.add(t);
      }
    }
    return named;
  }

  /** The methods {@code type} declares that resource {@code k} weaves; empty if it takes none. */
  static List<Method> woven(MethodPlan plan, int k, Class<?> type) {
    List<Method> woven = new ArrayList<Method>();
    if (!annotated(plan.annotated(k), type)) {
      return woven;
    }
    List<Class<?>> named = named(plan, k, type);
    if (named.isEmpty()) {
      return woven;
    }
    Method[] declared = type.getDeclaredMethods();
    for (Method m : declared) {
      int mod = m.getModifiers();
      if (Modifier.isAbstract(mod) || Modifier.isNative(mod) || m.isBridge() || m.isSynthetic()) {
        continue;
      }
      if (plan.listsMethods(k)
          ? plan.methodNamed(k, m.getName())
          : Modifier.isPublic(mod)
              && !Modifier.isStatic(mod)
              && (declaredBy(m, named, type) || bridgedBy(m, declared, named, type))) {
        woven.add(m);
      }
    }
    return woven;
  }

  /**
   * Whether a bridge of {@code type} with {@code m}'s name and number of parameters is declared by
   * a named type: a generic or covariant override, which the weaver takes through its bridge.
   */
  private static boolean bridgedBy(
      Method m, Method[] declared, List<Class<?>> named, Class<?> type) {
    for (Method b : declared) {
      if (b.isBridge()
          && b.getName().equals(m.getName())
          && b.getParameterTypes().length == m.getParameterTypes().length
          && declaredBy(b, named, type)) {
        return true;
      }
    }
    return false;
  }

  private static boolean declaredBy(Method m, List<Class<?>> named, Class<?> type) {
    for (Class<?> t : named) {
      if (t == type) {
        if (!TypeFacts.generated(type.getName())) {
          return true;
        }
        continue;
      }
      try {
        Method d = t.getDeclaredMethod(m.getName(), m.getParameterTypes());
        if (Modifier.isPublic(d.getModifiers()) && !Modifier.isStatic(d.getModifiers())) {
          return true;
        }
      } catch (NoSuchMethodException e) {
        // Not this one's.
      }
    }
    return false;
  }

  private static boolean annotated(String annotation, Class<?> type) {
    if (annotation == null) {
      return true;
    }
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      Annotation[] annotations;
      try {
        annotations = c.getDeclaredAnnotations();
      } catch (Throwable e) {
        continue;
      }
      for (Annotation a : annotations) {
        if (a.annotationType().getName().equals(annotation)) {
          return true;
        }
      }
    }
    return false;
  }

  private static Set<Class<?>> typeAndAncestors(Class<?> type) {
    Set<Class<?>> all = new LinkedHashSet<Class<?>>();
    add(type, all);
    return all;
  }

  private static void add(Class<?> type, Set<Class<?>> all) {
    if (type == null || !all.add(type)) {
      return;
    }
    add(type.getSuperclass(), all);
    for (Class<?> i : type.getInterfaces()) {
      add(i, all);
    }
  }

  /** {@code com.acme.PriceClient.quote(java.lang.String)}. */
  static String describe(Method m) {
    return m.getDeclaringClass().getName()
        + "."
        + m.getName()
        + Descriptors.parameters(m.getParameterTypes());
  }

  static String[] names(Class<?>[] types) {
    String[] names = new String[types.length];
    for (int i = 0; i < types.length; i++) {
      names[i] = types[i].getName();
    }
    return names;
  }

  static List<String> sorted(Set<String> names) {
    String[] a = names.toArray(new String[0]);
    Arrays.sort(a);
    return Arrays.asList(a);
  }
}
