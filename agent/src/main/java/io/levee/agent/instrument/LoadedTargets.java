package io.levee.agent.instrument;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

/**
 * Which loaded classes an attach retransforms and a detach restores: those that extend or implement
 * an API some integration targets. Without this pre-filter ByteBuddy describes every loaded
 * application class from its class file to run the matchers (several seconds for a servlet
 * container); walking the loaded supertypes by reflection takes milliseconds and loads nothing. The
 * matchers still decide, on this short list. The APIs are those of {@link SuperTypes#APIS}.
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
