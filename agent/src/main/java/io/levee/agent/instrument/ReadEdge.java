package io.levee.agent.instrument;

import io.levee.agent.log.AgentLog;
import io.levee.bootstrap.Levee;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.Map;
import java.util.Set;

/**
 * On Java 9 and later, lets the JDK modules the agent weaves read the boot loader's unnamed module,
 * where the bridge lives: java.base (the {@code HttpURLConnection} implementation) and, where it
 * exists (Java 11+), java.net.http (the {@code HttpClient} implementation). A named module can only
 * link to a module it reads. Done once at installation, before anything is woven. Reflection,
 * because the agent is Java 8 bytecode; on Java 8 there are no modules and nothing to do.
 */
final class ReadEdge {
  /** The JDK modules whose classes get woven code, and what is unprotected without the edge. */
  private static final String[][] MODULES = {
    {"java.base", "outbound HttpURLConnection calls"},
    {"java.net.http", "outbound java.net.http.HttpClient calls"},
  };

  private ReadEdge() {}

  static void fromJdkModules(Instrumentation inst, AgentLog log) {
    Method getModule;
    try {
      getModule = Class.class.getMethod("getModule");
    } catch (NoSuchMethodException java8) {
      return;
    }
    for (String[] module : MODULES) {
      try {
        add(inst, getModule, module[0]);
      } catch (Throwable t) {
        log.warn(module[0] + " cannot read the bridge: " + module[1] + " stay unprotected", t);
      }
    }
  }

  private static void add(Instrumentation inst, Method getModule, String name) throws Exception {
    Class<?> moduleType = getModule.getReturnType();
    Class<?> layerType = Class.forName("java.lang.ModuleLayer");
    Object boot = layerType.getMethod("boot").invoke(null);
    Object found = layerType.getMethod("findModule", String.class).invoke(boot, name);
    Object jdk = ((java.util.Optional<?>) found).orElse(null);
    if (jdk == null) {
      return;
    }
    Object bridge = getModule.invoke(Levee.class);
    if ((Boolean) moduleType.getMethod("canRead", moduleType).invoke(jdk, bridge)) {
      return;
    }
    Instrumentation.class
        .getMethod(
            "redefineModule", moduleType, Set.class, Map.class, Map.class, Set.class, Map.class)
        .invoke(
            inst,
            jdk,
            Collections.singleton(bridge),
            Collections.emptyMap(),
            Collections.emptyMap(),
            Collections.emptySet(),
            Collections.emptyMap());
  }
}
