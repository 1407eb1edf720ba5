package io.levee.agent.cli;

import java.lang.reflect.InvocationTargetException;

/**
 * Turns what the attach mechanism throws (often wrapped twice, by reflection and by ByteBuddy) into
 * one sentence that says what happened and what to do about it.
 */
final class AttachErrors {
  static final String NO_ATTACH_MODULE =
      "this Java runtime has no attach module (jdk.attach; tools.jar on Java 8): run the command"
          + " with the java of a JDK, ideally the same version and vendor as the target JVM";

  static final String DYNAMIC_AGENTS_REFUSED =
      "the JVM refuses agents loaded at run time (it was started with"
          + " -XX:-EnableDynamicAgentLoading): restart it with -XX:+EnableDynamicAgentLoading, or"
          + " start it with -javaagent:levee-agent.jar=rules=FILE instead of attaching";

  private AttachErrors() {}

  static String describe(String pid, Throwable error) {
    String messages = "";
    Throwable root = error;
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (!(t instanceof InvocationTargetException) && t.getMessage() != null) {
        messages += " " + t.getMessage();
      }
      root = t;
    }
    if (messages.contains("No compatible attachment provider")) {
      return NO_ATTACH_MODULE;
    }
    if (messages.contains("EnableDynamicAgentLoading")
        || messages.contains("Dynamic agent loading is not enabled")) {
      return DYNAMIC_AGENTS_REFUSED;
    }
    if (messages.contains("No such process")) {
      return TargetProcess.noSuchProcess(pid);
    }
    String name = root.getClass().getSimpleName();
    String why = root.getMessage() == null ? name : root.getMessage();
    if (name.equals("AttachNotSupportedException")
        || name.equals("IOException")
        || name.equals("AttachOperationFailedException")) {
      return "cannot attach to process "
          + pid
          + " ("
          + why
          + "): it must be a running JVM of this user whose attach mechanism is on (not started"
          + " with -XX:+DisableAttachMechanism), and reachable from here (a JVM in a container"
          + " needs the command run inside that container)";
    }
    if (name.equals("AgentLoadException") || name.equals("AgentInitializationException")) {
      return "process " + pid + " refused the agent (" + why + "); its own output says more";
    }
    return "cannot attach to process " + pid + ": " + name + ": " + why;
  }
}
