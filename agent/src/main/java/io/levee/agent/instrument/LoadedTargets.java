package io.levee.agent.instrument;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

/**
 * Which loaded classes an attach retransforms and a detach restores: those that extend or implement
 * an API some integration targets. Without this pre-filter every loaded application class from its
 * class file to run the matchers (several seconds for a servlet container); walking the loaded
 * supertypes by reflection takes milliseconds and loads nothing. The type rules still decide, on
 * this short list. The APIs are those of {@link SuperTypes#APIS}.
 */
final class LoadedTargets {
  private LoadedTargets() {}

  static List<Class<?>> find(Instrumentation inst) {
    List<Class<?>> targets = new ArrayList<Class<?>>();
    for (Class<?> type : inst.getAllLoadedClasses()) {
      if (!type.isInterface()
          && !type.isArray()
          && !type.isPrimitive()
          && extendsApi(type)
          && inst.isModifiableClass(type)) {
        targets.add(type);
      }
    }
    return targets;
  }

  /**
   * The {@link SuperTypes} bits of the APIs {@code type} is or extends, from the loaded classes.
   */
  static int mask(Class<?> type) {
    int mask = 0;
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      mask |= own(c) | interfaces(c);
    }
    return mask;
  }

  private static int interfaces(Class<?> type) {
    int mask = 0;
    for (Class<?> i : type.getInterfaces()) {
      mask |= own(i) | interfaces(i);
    }
    return mask;
  }

  private static int own(Class<?> type) {
    String name = type.getName();
    for (int i = 0; i < SuperTypes.APIS.length; i++) {
      if (SuperTypes.APIS[i].equals(name)) {
        return 1 << i;
      }
    }
    return 0;
  }

  static boolean extendsApi(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      if (isApi(c) || implementsApi(c)) {
        return true;
      }
    }
    return false;
  }

  private static boolean implementsApi(Class<?> type) {
    for (Class<?> i : type.getInterfaces()) {
      if (isApi(i) || implementsApi(i)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isApi(Class<?> type) {
    String name = type.getName();
    for (String api : SuperTypes.APIS) {
      if (api.equals(name)) {
        return true;
      }
    }
    return false;
  }
}
