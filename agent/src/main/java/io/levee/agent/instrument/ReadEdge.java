package io.levee.agent.instrument;

import io.levee.agent.log.AgentLog;
import io.levee.bootstrap.Levee;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.net.HttpURLConnection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;

/**
 * On Java 9 and later, lets java.base read the boot loader's unnamed module, where the bridge
 * lives: code woven into the JDK's {@code HttpURLConnection} implementation calls the bridge, and a
 * named module can only link to a module it reads. Done once at installation, before anything is
 * woven. Reflection, because the agent is Java 8 bytecode; on Java 8 there are no modules and
 * nothing to do.
 */
final class ReadEdge {
  private ReadEdge() {}

  static void fromJavaBase(Instrumentation inst, AgentLog log) {
    try {
      Method getModule;
      try {
        getModule = Class.class.getMethod("getModule");
      } catch (NoSuchMethodException java8) {
        return;
      }
      Class<?> moduleType = getModule.getReturnType();
      Object javaBase = getModule.invoke(HttpURLConnection.class);
      Object bridge = getModule.invoke(Levee.class);
      if ((Boolean) moduleType.getMethod("canRead", moduleType).invoke(javaBase, bridge)) {
        return;
      }
      Instrumentation.class
          .getMethod(
              "redefineModule", moduleType, Set.class, Map.class, Map.class, Set.class, Map.class)
          .invoke(
              inst,
              javaBase,
              Collections.singleton(bridge),
              Collections.emptyMap(),
              Collections.emptyMap(),
              Collections.emptySet(),
              Collections.emptyMap());
    } catch (Throwable t) {
      log.warn("java.base cannot read the bridge: outbound HTTP calls stay unprotected", t);
    }
  }
}
