package io.levee.agent.startup;

import io.levee.agent.args.AgentOptions;
import io.levee.agent.args.Reply;
import io.levee.agent.cluster.ClusterSync;
import io.levee.agent.instrument.AgentInstaller;
import io.levee.agent.instrument.Integration;
import io.levee.agent.instrument.Weaver;
import io.levee.agent.lifecycle.Observability;
import io.levee.agent.lifecycle.RunningAgent;
import io.levee.agent.log.AgentLog;
import io.levee.agent.log.ErrorLog;
import io.levee.agent.log.Version;
import io.levee.agent.method.MethodWeaving;
import io.levee.agent.otel.Tracing;
import io.levee.agent.rulesfile.RulesFile;
import io.levee.agent.rulesfile.RulesWatcher;
import io.levee.bootstrap.Levee;
import io.levee.rules.engine.Engine;
import io.levee.rules.engine.Sleeper;
import io.levee.rules.load.RuleError;
import io.levee.rules.model.RuleSet;
import io.levee.rules.policy.adaptive.CpuSampler;
import io.levee.rules.time.Clock;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.List;

/**
 * The agent's start-up, once the bridge is in the boot loader: rules, engine, dispatcher, the
 * instrumentation, what the agent tells about itself, then the reload thread. What it starts is
 * kept in the {@link RunningAgent} it returns, so that a detach can undo it: the transformer to
 * reset, and a stop hook for every thread (the CPU sampler, the log thread and the endpoint).
 *
 * <p>Concurrency: {@link AgentControl} calls it under its lock, at most once per running agent.
 */
public final class Startup {
  private Startup() {}

  /**
   * Starts everything; {@code attached}: a runtime attach, loaded classes retransformed in batches.
   */
  public static RunningAgent start(
      AgentOptions options, AgentLog log, Instrumentation inst, boolean attached) {
    long began = System.nanoTime();
    RulesWatcher rulesFile = new RulesWatcher(options.rules(), log);
    // The rules are read while the instrumentation is prepared; nothing is installed before both
    // are.
    RulesFile.Loading loading = RulesFile.loadInBackground(options.rules(), log);
    List<Integration> integrations = Integrations.all(log);
    MethodWeaving methods = new MethodWeaving(log);
    Weaver weaver = AgentInstaller.prepare(integrations, log, methods);
    long prepared = System.nanoTime();
    RuleSet read = awaitRules(loading);
    List<RuleError> refused = methods.check(inst, read.source, read);
    RuleSet rules = refused.isEmpty() ? read : refuse(read, refused, log);
    long rulesLoaded = System.nanoTime();
    CpuSampler cpu = new CpuSampler();
    // Durations cost a clock read per call; only the metrics of the http option read them.
    Engine engine = new Engine(Clock.SYSTEM, cpu, Sleeper.SYSTEM, options.http() != null);
    // The weaver learns the method resources before it is installed, so the classes they name are
    // among those it retransforms.
    List<Class<?>> methodClasses = methods.change(inst, rules);
    engine.apply(rules);
    RunningAgent agent = new RunningAgent(options, log, inst, engine, rulesFile, methods);
    agent.refusedAtStart(refused);
    agent.onStop(cpu);
    try {
      LeveeDispatcher dispatcher =
          new LeveeDispatcher(engine, methods, new ErrorLog(log, Clock.SYSTEM));
      Levee.install(FaultyDispatcher.wrapIfAsked(dispatcher, log));
      agent.onStop(dispatcher);
      long dispatching = System.nanoTime();
      Tracing.start(engine, log);
      agent.instrumented(AgentInstaller.install(inst, weaver, log, attached));
      if (methodClasses != null) {
        List<Class<?>> late = methods.straggling(inst, methodClasses);
        if (!late.isEmpty()) {
          AgentInstaller.retransform(inst, weaver, late);
          methodClasses = new java.util.ArrayList<Class<?>>(methodClasses);
          methodClasses.addAll(late);
        }
        agent.methodsWoven(methodClasses);
      }
      long instrumented = System.nanoTime();
      Observability observability = Observability.start(engine, cpu, options.http(), log);
      agent.onRulesApplied(new Reloads(observability));
      agent.onStop(observability);
      ClusterSync cluster = ClusterSync.start(engine, log);
      agent.onRulesApplied(cluster);
      agent.onStop(cluster);
      agent.watchRules();
      CommandBox commands = CommandBox.open(inst, log);
      if (commands != null) {
        agent.onStop(commands);
      }
      long done = System.nanoTime();
      if (log.enabled(AgentLog.Level.DEBUG)) {
        log.debug(
            "start-up took "
                + millis(began, done)
                + " ms: instrumentation prepared in "
                + millis(began, prepared)
                + " ms, rules read beside it, waited for "
                + millis(prepared, rulesLoaded)
                + " ms more, engine and bridge "
                + millis(rulesLoaded, dispatching)
                + " ms, instrumentation installed in "
                + millis(dispatching, instrumented)
                + " ms, observability and reloads "
                + millis(instrumented, done)
                + " ms");
      }
      log.info(
          "started: "
              + inForce(rules, agent.rulesFile().path())
              + "; integrations "
              + names(integrations)
              + "; version "
              + Version.current());
      return agent;
    } catch (Throwable t) {
      // Whatever this start had installed or started goes again, so a later attach starts clean.
      agent.abandon();
      throw t;
    }
  }

  /**
   * No rules, for {@code rules} whose {@code errors} only the classes loaded now show (a method
   * resource's exception that a loaded method cannot throw): as for a file with errors, the agent
   * protects nothing and says why.
   */
  private static RuleSet refuse(RuleSet rules, List<RuleError> errors, AgentLog log) {
    for (RuleError error : errors) {
      log.error(error.toString());
    }
    log.error(
        "rules file "
            + rules.source
            + " has "
            + errors.size()
            + (errors.size() == 1 ? " error" : " errors")
            + ": protecting nothing");
    return RuleSet.EMPTY;
  }

  private static RuleSet awaitRules(RulesFile.Loading loading) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return loading.get();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** One line for the command line that attached the agent. */
  public static String summary(RunningAgent agent) {
    RuleSet rules = agent.engine().rules();
    return "Levee started: " + inForce(rules, agent.rulesFile().path());
  }

  /**
   * Tells the command line that attached the agent how the start went: the summary, or, when the
   * rules file was refused for what the loaded classes show, a failure with each error (the agent
   * runs, protecting nothing, and takes the file again once it is fixed).
   */
  static void answer(RunningAgent agent, Reply reply) {
    List<RuleError> refused = agent.refusedAtStart();
    if (refused.isEmpty()) {
      reply.line(summary(agent));
      return;
    }
    reply.fail(
        "rules file "
            + refused.get(0).file()
            + " rejected: "
            + refused.size()
            + (refused.size() == 1 ? " error" : " errors")
            + "; Levee runs in the JVM and protects nothing until the file is fixed");
    for (RuleError error : refused) {
      reply.line("  " + error);
    }
  }

  private static long millis(long from, long to) {
    return (to - from) / 1000000L;
  }

  /**
   * What the start put in force: the rules and their file, or why nothing. A file that was given
   * but not applied (missing or refused, logged with its name just before, once) is watched all the
   * same, and applies once it loads without errors.
   */
  static String inForce(RuleSet rules, Path watched) {
    if (rules != RuleSet.EMPTY) {
      return rules.describe() + " from " + rules.source;
    }
    if (watched == null) {
      return "no rules file, protecting nothing";
    }
    return "protecting nothing until the rules file loads without errors (it is watched)";
  }

  private static String names(List<Integration> integrations) {
    StringBuilder s = new StringBuilder();
    for (Integration i : integrations) {
      s.append(s.length() == 0 ? "" : ", ").append(i.name());
    }
    return s.toString();
  }

  /** Each reload, applied or rejected, counted and logged by the metrics. */
  private static final class Reloads implements RunningAgent.RulesListener {
    private final Observability observability;

    Reloads(Observability observability) {
      this.observability = observability;
    }

    @Override
    public void rulesApplied(RuleSet rules) {
      observability.rulesApplied(rules);
    }

    @Override
    public void rulesRejected(String file, List<RuleError> errors) {
      observability.rulesRejected(file, errors);
    }
  }
}
