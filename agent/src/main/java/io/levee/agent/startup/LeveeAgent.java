package io.levee.agent.startup;

import io.levee.agent.args.AgentOptions;
import io.levee.agent.args.ControlArgs;
import io.levee.agent.args.Reply;
import io.levee.agent.log.AgentLog;
import io.levee.agent.log.Version;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;

/**
 * The agent's entry points ({@code Premain-Class}, {@code Agent-Class}). Deliberately tiny: it
 * reads the arguments, puts the bridge into the boot class loader, and only then loads the rest of
 * the agent by name, so that no class of the system class path ever links against {@code
 * io.levee.bootstrap} before the boot loader can define it. Until that point it touches only
 * java.base and the bootstrap-free {@link AgentOptions}, {@link AgentLog}, {@link BootstrapJar},
 * {@link ControlArgs} and {@link Reply}.
 *
 * <p>Every load of the jar comes here: the start ({@code -javaagent} or an attach) and each command
 * of the command line ({@code command=status,reply=FILE}), which is answered in the reply file.
 */
public final class LeveeAgent {
  private static final String CONTROL = "io.levee.agent.startup.AgentControl";
  private static final String CLI = "io.levee.agent.cli.Main";

  private LeveeAgent() {}

  public static void premain(String args, Instrumentation inst) {
    if (runsOwnCommandLine()) {
      // JAVA_TOOL_OPTIONS gives every JVM of a container the agent, Levee's own command line
      // included: there it would protect nothing and only take the endpoint's port.
      return;
    }
    load(args, inst, false);
  }

  /**
   * Whether this JVM runs Levee's command line: {@code java -jar} this jar, or its main class.
   * Reads two system properties and resolves two paths; nothing else is loaded.
   */
  static boolean runsOwnCommandLine() {
    String command = System.getProperty("sun.java.command");
    if (command == null || command.isEmpty()) {
      return false;
    }
    String main = command.split(" ", 2)[0];
    if (CLI.equals(main)) {
      return true;
    }
    if (!main.endsWith(".jar")) {
      return false;
    }
    try {
      java.security.CodeSource source = LeveeAgent.class.getProtectionDomain().getCodeSource();
      return source != null
          && new java.io.File(main)
              .getCanonicalFile()
              .equals(new java.io.File(source.getLocation().toURI()).getCanonicalFile());
    } catch (Exception e) {
      return false;
    }
  }

  /** Runtime attach, and every command after it. */
  public static void agentmain(String args, Instrumentation inst) {
    load(args, inst, true);
  }

  private static void load(String args, Instrumentation inst, boolean attached) {
    ControlArgs control = ControlArgs.parse(args);
    Reply reply = new Reply(control.reply());
    AgentLog log = AgentLog.STDERR;
    // Once the control has the log, it keeps it open (a running agent's) or closes it.
    boolean handedOver = false;
    try {
      if (System.getProperty(ControlArgs.VERSION_PROPERTY) == null) {
        System.setProperty(ControlArgs.VERSION_PROPERTY, Version.current());
      }
      if (!control.known()) {
        reply.fail("unknown command '" + control.command() + "'");
      } else if (control.needsRunningAgent()) {
        if (ControlArgs.RUNNING.equals(System.getProperty(ControlArgs.STATE_PROPERTY))) {
          control(control, null, log, inst, attached, reply);
        } else {
          reply.fail("Levee is not running in this JVM");
        }
      } else {
        AgentOptions options =
            AgentOptions.resolve(control.options(), System.getProperties(), System.getenv());
        log = AgentLog.open(options.logFile(), options.logLevel());
        for (String problem : options.problems()) {
          log.warn(problem);
          reply.line("warning: " + problem);
        }
        if (options.enabled()) {
          BootstrapJar.appendTo(inst);
          control(control, options, log, inst, attached, reply);
          handedOver = true;
        } else {
          if (!attached && System.getProperty(ControlArgs.STATE_PROPERTY) == null) {
            // Tells a later attach that an agent able to retransform was there from the start.
            System.setProperty(ControlArgs.STATE_PROPERTY, ControlArgs.DORMANT);
          }
          log.info("disabled (enabled=false): doing nothing");
          reply.fail("Levee is disabled (enabled=false): nothing done");
        }
      }
    } catch (Throwable t) {
      log.error("could not start, the application runs unprotected", t);
      reply.fail("could not start, the application runs unprotected: " + t);
    }
    try {
      reply.write();
    } catch (IOException e) {
      log.warn("cannot write the answer to " + control.reply(), e);
    }
    if (!handedOver) {
      log.close();
    }
  }

  private static void control(
      ControlArgs control,
      AgentOptions options,
      AgentLog log,
      Instrumentation inst,
      boolean attached,
      Reply reply)
      throws Throwable {
    try {
      Class.forName(CONTROL)
          .getMethod(
              "handle",
              ControlArgs.class,
              AgentOptions.class,
              AgentLog.class,
              Instrumentation.class,
              boolean.class,
              Reply.class)
          .invoke(null, control, options, log, inst, attached, reply);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
