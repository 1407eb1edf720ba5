package io.levee.agent;

import java.lang.instrument.Instrumentation;

/**
 * The agent's entry points ({@code Premain-Class}, {@code Agent-Class}). Deliberately tiny: it reads
 * the options, puts the bridge into the boot class loader, and only then loads the rest of the agent
 * by name, so that no class of the system class path ever links against {@code io.levee.bootstrap}
 * before the boot loader can define it. Until that point it touches only java.base and the
 * bootstrap-free {@link AgentOptions}, {@link AgentLog} and {@link BootstrapJar}.
 */
public final class LeveeAgent {
  private static final String STARTUP = "io.levee.agent.Startup";

  private LeveeAgent() {}

  public static void premain(String args, Instrumentation inst) {
    start(args, inst);
  }

  /** Runtime attach; the same start-up as {@link #premain} until attach and detach get their own. */
  public static void agentmain(String args, Instrumentation inst) {
    start(args, inst);
  }

  private static void start(String args, Instrumentation inst) {
    AgentLog log = AgentLog.STDERR;
    try {
      AgentOptions options = AgentOptions.resolve(args, System.getProperties(), System.getenv());
      log = AgentLog.open(options);
      for (String problem : options.problems()) {
        log.warn(problem);
      }
      if (!options.enabled()) {
        log.info("disabled (enabled=false): doing nothing");
        return;
      }
      BootstrapJar.appendTo(inst);
      Class.forName(STARTUP)
          .getMethod("start", AgentOptions.class, AgentLog.class, Instrumentation.class)
          .invoke(null, options, log, inst);
    } catch (Throwable t) {
      log.error("could not start, the application runs unprotected", t);
    }
  }
}
