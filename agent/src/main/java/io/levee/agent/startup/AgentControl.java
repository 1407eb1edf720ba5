package io.levee.agent.startup;

import io.levee.agent.args.AgentOptions;
import io.levee.agent.args.ControlArgs;
import io.levee.agent.args.Reply;
import io.levee.agent.lifecycle.RunningAgent;
import io.levee.agent.lifecycle.StatusTable;
import io.levee.agent.log.AgentLog;
import io.levee.agent.rulesfile.RulesFile;
import io.levee.agent.rulesfile.RulesWatcher;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Levee;
import java.lang.instrument.Instrumentation;

/**
 * The one agent of this JVM and every command that reaches it. {@link LeveeAgent} calls {@link
 * #handle} by name for each load of the agent jar: the {@code -javaagent} start, an attach, and
 * each later {@code status}, {@code reload} and {@code detach}, which the command line sends as
 * another load of the same jar. A second load runs in the same system class loader (the jar is
 * already on its search path, so {@code LeveeAgent} and this class resolve to the classes already
 * loaded), so {@link #running} is the agent the first load started.
 *
 * <p>An agent already running is never started twice: an attach reloads it with the new rules file.
 * After a detach the next attach is a fresh start.
 *
 * <p>Concurrency: every entry point is synchronized on the class; commands run one at a time.
 */
public final class AgentControl {
  private static RunningAgent running;

  private AgentControl() {}

  public static synchronized void handle(
      ControlArgs args,
      AgentOptions options,
      AgentLog log,
      Instrumentation inst,
      boolean attached,
      Reply reply) {
    String command = args.command();
    if (ControlArgs.ATTACH.equals(command)) {
      if (running == null) {
        start(options, log, inst, attached, reply);
      } else {
        try {
          attachAgain(options, reply);
        } finally {
          // The running agent keeps the log it started with; the one opened for this attach goes.
          log.close();
        }
      }
      return;
    }
    if (running == null) {
      reply.fail("Levee is not running in this JVM");
    } else if (ControlArgs.STATUS.equals(command)) {
      RulesWatcher rules = running.rulesFile();
      reply.line(
          StatusTable.render(
              running.engine().rules(),
              rules.path(),
              running.engine().status(),
              running.engine().clusterConnected()));
    } else if (ControlArgs.RELOAD.equals(command)) {
      running.rulesFile().reload(args.rules(), reply);
    } else if (ControlArgs.DETACH.equals(command)) {
      detach(reply);
    } else {
      reply.fail("unknown command '" + command + "'");
    }
  }

  private static void start(
      AgentOptions options, AgentLog log, Instrumentation inst, boolean attached, Reply reply) {
    if (Levee.dispatcher() != Dispatcher.NOOP) {
      // A copy of the agent in another class loader (another jar) already fills the bridge.
      reply.fail("another copy of Levee already runs in this JVM: nothing done");
      log.warn("another copy of Levee already runs in this JVM: this one does nothing");
      log.close();
      return;
    }
    try {
      Startup.Begun begun = Startup.begin(options, log, inst, attached);
      if (!attached && !RulesFile.mayNameMethods(options.rules())) {
        // At JVM start the rules are put in force beside the application's main, which calls
        // wait for at the gate (RulesGate). Not a daemon: a JVM whose main ends at once still
        // finishes the start (and says so) before it exits. Method resources must be known
        // before the classes they name load, so a file that may have them is waited for.
        Thread finishing = new Thread(() -> finishStart(begun, log), "levee-start");
        begun.finishedBy(finishing);
        finishing.start();
        return;
      }
      running = begun.finish();
      System.setProperty(ControlArgs.STATE_PROPERTY, ControlArgs.RUNNING);
      Startup.answer(running, reply);
    } catch (Throwable t) {
      Levee.install(null);
      log.error("could not start, the application runs unprotected", t);
      if (running == null) {
        log.close();
      }
      reply.fail("could not start, the application runs unprotected: " + t);
    }
  }

  /** The second half of a start at JVM start, on its own thread; commands wait for it. */
  private static synchronized void finishStart(Startup.Begun begun, AgentLog log) {
    try {
      running = begun.finish();
      System.setProperty(ControlArgs.STATE_PROPERTY, ControlArgs.RUNNING);
    } catch (Throwable t) {
      Levee.install(null);
      log.error("could not start, the application runs unprotected", t);
      log.close();
    }
  }

  private static void attachAgain(AgentOptions options, Reply reply) {
    running.log().info("attached again: reloading the rules, nothing is instrumented twice");
    reply.line("Levee was already running in this JVM: reloading its rules");
    running.rulesFile().reload(options.rules(), reply);
    String http = running.options().http();
    if (options.http() != null && !options.http().equals(http)) {
      reply.line(
          "note: the http endpoint is set at start only (now "
              + (http == null ? "off" : http)
              + "); detach and attach again to change it");
    }
  }

  private static void detach(Reply reply) {
    RunningAgent agent = running;
    running = null;
    agent.stop(reply);
    System.setProperty(ControlArgs.STATE_PROPERTY, ControlArgs.DETACHED);
    agent.log().info("detached: original bytecode restored, agent threads stopped");
    // Last, so the detach itself is still logged; a later attach opens the file again.
    agent.log().close();
    reply.line("Levee detached: original bytecode restored, agent threads stopped");
  }
}
