package io.levee.agent.instrument;

import io.levee.agent.AgentLog;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.JavaModule;

/** Logs what the instrumentation did: each class it changed (debug) and each it could not (warn). */
final class LoggingListener extends AgentBuilder.Listener.Adapter {
  private final AgentLog log;

  LoggingListener(AgentLog log) {
    this.log = log;
  }

  @Override
  public void onTransformation(
      TypeDescription type,
      ClassLoader loader,
      JavaModule module,
      boolean loaded,
      DynamicType dynamicType) {
    if (log.enabled(AgentLog.Level.DEBUG)) {
      log.debug("instrumented " + type.getName());
    }
  }

  @Override
  public void onError(
      String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable error) {
    if (error instanceof TypePool.Resolution.NoSuchTypeException) {
      // A class without a class file (generated at run time) cannot be a target anyway.
      log.debug("could not describe " + typeName + ": " + error.getMessage());
      return;
    }
    log.warn("could not instrument " + typeName + ", it runs unprotected", error);
  }
}
