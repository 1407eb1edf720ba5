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
import io.levee.bootstrap.Dispatcher;
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
  private static final long MAX_RULES_WAIT_MILLIS = 60_000;

  private Startup() {}

  /**
   * Starts everything; {@code attached}: a runtime attach, loaded classes retransformed in batches.
   */
  public static RunningAgent start(
      AgentOptions options, AgentLog log, Instrumentation inst, boolean attached) {
    return begin(options, log, inst, attached).finish();
  }

  /**
   * The first half of a start: the rules are being read on a thread of their own while the
   * instrumentation is prepared and installed, behind a {@link RulesGate} that makes a call wait
   * for the rules. {@link Begun#finish} puts them in force; at JVM start it runs beside the
   * application's {@code main}, which thus does not wait for the rules file.
   */
  static Begun begin(AgentOptions options, AgentLog log, Instrumentation inst, boolean attached) {
    long began = System.nanoTime();
    // What the method resources are checked against: the classes of this moment, as when the start
    // waited for its rules (ThrowCheck).
    Class<?>[] loadedAtBegin = inst == null ? new Class<?>[0] : inst.getAllLoadedClasses();
    RulesWatcher rulesFile = new RulesWatcher(options.rules(), log);
    RulesFile.Loading loading = RulesFile.loadInBackground(options.rules(), log);
    List<Integration> integrations = Integrations.all(log);
    MethodWeaving methods = new MethodWeaving(log);
    Weaver weaver = AgentInstaller.prepare(integrations, log, methods);
    CpuSampler cpu = new CpuSampler();
    // Durations cost a clock read per call; only the metrics of the http option read them.
    Engine engine = new Engine(Clock.SYSTEM, cpu, Sleeper.SYSTEM, options.http() != null);
    RunningAgent agent = new RunningAgent(options, log, inst, engine, rulesFile, methods);
    agent.onStop(cpu);
    try {
      // Before premain returns: whether OpenTelemetry's agent is already there tells which agent
      // was given first, which decides whose code wraps whose (Tracing).
      Tracing.start(engine, log);
      LeveeDispatcher dispatcher =
          new LeveeDispatcher(engine, methods, new ErrorLog(log, Clock.SYSTEM));
      Dispatcher real = FaultyDispatcher.wrapIfAsked(dispatcher, log);
      RulesGate gate = new RulesGate(real, log, RulesGate.MAX_WAIT_MILLIS);
      Levee.install(gate);
      agent.onStop(dispatcher);
      long prepared = System.nanoTime();
      // Method resources are not known yet: the classes they name that are loaded by the time
      // the rules are applied are retransformed then, as at a reload.
      agent.instrumented(AgentInstaller.install(inst, weaver, log, attached));
      long installed = System.nanoTime();
      Begun begun =
          new Begun(agent, loading, integrations, methods, engine, cpu, real, gate, inst, log);
      begun.loadedAtBegin = loadedAtBegin;
      begun.began = began;
      begun.prepared = prepared;
      begun.installed = installed;
      return begun;
    } catch (Throwable t) {
      // Whatever this start had installed or started goes again, so a later attach starts clean.
      agent.abandon();
      throw t;
    }
  }

  /** A start whose instrumentation is installed and whose rules are not yet in force. */
  static final class Begun {
    private final RunningAgent agent;
    private final RulesFile.Loading loading;
    private final List<Integration> integrations;
    private final MethodWeaving methods;
    private final Engine engine;
    private final CpuSampler cpu;
    private final Dispatcher real;
    private final RulesGate gate;
    private final Instrumentation inst;
    private final AgentLog log;
    private Class<?>[] loadedAtBegin;
    private long began;
    private long prepared;
    private long installed;

    private Begun(
        RunningAgent agent,
        RulesFile.Loading loading,
        List<Integration> integrations,
        MethodWeaving methods,
        Engine engine,
        CpuSampler cpu,
        Dispatcher real,
        RulesGate gate,
        Instrumentation inst,
        AgentLog log) {
      this.agent = agent;
      this.loading = loading;
      this.integrations = integrations;
      this.methods = methods;
      this.engine = engine;
      this.cpu = cpu;
      this.real = real;
      this.gate = gate;
      this.inst = inst;
      this.log = log;
    }

    /** The thread that will call {@link #finish}, when it is not the one that began. */
    void finishedBy(Thread thread) {
      gate.startedBy(thread);
    }

    /**
     * Puts the rules in force (their method resources woven), opens the gate, and starts what the
     * agent tells about itself and the reload thread. A failure undoes the whole start, and the
     * calls waiting at the gate go on unprotected.
     */
    RunningAgent finish() {
      boolean ok = false;
      try {
        long finishing = System.nanoTime();
        RuleSet read = awaitRules(loading);
        List<RuleError> refused = methods.check(inst, loadedAtBegin, read.source, read);
        RuleSet rules = refused.isEmpty() ? read : refuse(read, refused, log);
        agent.refusedAtStart(refused);
        long rulesLoaded = System.nanoTime();
        agent.apply(rules);
        // Out of the gate: from here on a call costs what it always does.
        Levee.install(real);
        ok = true;
        gate.open(true);
        long applied = System.nanoTime();
        Observability observability = Observability.start(engine, cpu, agent.options().http(), log);
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
                  + millis(began, installed)
                  + " ms before the application could go on: instrumentation prepared in "
                  + millis(began, prepared)
                  + " ms (rules read beside it), installed in "
                  + millis(prepared, installed)
                  + " ms; then waited "
                  + millis(finishing, rulesLoaded)
                  + " ms more for the rules, applied them in "
                  + millis(rulesLoaded, applied)
                  + " ms, observability and reloads "
                  + millis(applied, done)
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
        if (!ok) {
          gate.open(false);
        }
        agent.abandon();
        throw t;
      }
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

  /**
   * The rules being read, waited for at most a minute: at JVM start the thread that waits keeps the
   * JVM from exiting, and a read that never ends must not keep it forever.
   */
  private static RuleSet awaitRules(RulesFile.Loading loading) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return loading.get(MAX_RULES_WAIT_MILLIS);
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
