package io.levee.agent.cli;

import java.util.Properties;

/**
 * What loading the agent at run time costs the target JVM, told before it is paid. Before JDK 23,
 * the first agent a JVM loads at run time makes it deoptimize all of its compiled code at the first
 * instrumentation (JDK-8324241); a JVM that had an agent from its start (Levee dormant, or any
 * other) already has what that agent needed, so it does not. On JDK 21 and later, every agent
 * loaded at run time prints a warning in the application's output unless the JVM allows it.
 */
final class FirstAttach {
  private FirstAttach() {}

  /** Whether an attach now would make {@code target} deoptimize all of its compiled code. */
  static boolean deoptimizes(Properties target, String leveeState) {
    int feature = javaFeature(target);
    return leveeState == null && feature > 0 && feature < 23 && !hadAgent(target);
  }

  /** Whether the JVM warns in the application's output about an agent loaded at run time. */
  static boolean warnsOfDynamicAgents(Properties target) {
    String options =
        target.getProperty(Jvms.JVM_ARGS, "") + " " + target.getProperty(Jvms.JVM_FLAGS, "");
    return javaFeature(target) >= 21 && !options.contains("+EnableDynamicAgentLoading");
  }

  /** Why attach refused without {@code --force}, and the two ways on. */
  static String refusal(String pid, Properties target) {
    return "not attached: process "
        + pid
        + " runs Java "
        + javaFeature(target)
        + " and was started without an agent. Before JDK 23, the first agent a JVM loads at run"
        + " time makes it deoptimize all of its compiled code (JDK-8324241): the application"
        + " then runs much slower until it is compiled again, seconds to minutes under load, and"
        + " detach does not undo it. Either start the JVM with"
        + " -javaagent:levee-agent.jar=enabled=false (dormant, protecting nothing until an"
        + " attach, which then costs nothing), or accept the slowdown now: java -jar"
        + " levee-agent.jar attach "
        + pid
        + " --force ...";
  }

  /** Said before a forced attach loads anything. */
  static String forcing(String pid) {
    return "levee: attaching with --force: process "
        + pid
        + " will deoptimize all of its compiled code (JDK-8324241) and run slower until it is"
        + " compiled again, seconds to minutes under load";
  }

  /** Said after an attach on a JVM that warns about agents loaded at run time. */
  static String dynamicAgentNote() {
    return "levee: note: JDK 21 and later print a warning in the application's output when an agent"
        + " is loaded at run time, as attach just did; start the JVM with"
        + " -XX:+EnableDynamicAgentLoading to allow it without the warning";
  }

  static boolean hadAgent(Properties target) {
    String args = target.getProperty(Jvms.JVM_ARGS, "");
    return args.contains("-javaagent:")
        || args.contains("-agentlib:")
        || args.contains("-agentpath:");
  }

  static int javaFeature(Properties target) {
    String version = target.getProperty("java.specification.version", "0");
    try {
      return Integer.parseInt(version.startsWith("1.") ? version.substring(2) : version);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
