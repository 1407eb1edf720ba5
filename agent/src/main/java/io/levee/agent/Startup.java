package io.levee.agent;

import io.levee.agent.instrument.AgentInstaller;
import io.levee.agent.instrument.Integration;
import io.levee.agent.metrics.Observability;
import io.levee.bootstrap.Levee;
import io.levee.rules.engine.Engine;
import io.levee.rules.engine.Sleeper;
import io.levee.rules.model.RuleSet;
import io.levee.rules.policy.adaptive.CpuSampler;
import io.levee.rules.time.Clock;
import java.lang.instrument.Instrumentation;
import java.util.List;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;

/**
 * The agent's start-up, once the bridge is in the boot loader ({@link LeveeAgent} calls it by name):
 * rules, engine, dispatcher, then the instrumentation. Any failure is logged and the application runs
 * unprotected. What it starts is kept here for a later detach: the transformer to reset, the engine
 * to stop.
 *
 * <p>Concurrency: start-up is serialised on the class; a second start (premain, then an attach) is
 * refused while the first one runs.
 */
public final class Startup {
  private static Running running;

  private Startup() {}

  public static synchronized void start(AgentOptions options, AgentLog log, Instrumentation inst) {
    if (running != null) {
      log.info("already running: this start does nothing");
      return;
    }
    try {
      running = run(options, log, inst);
    } catch (Throwable t) {
      Levee.install(null);
      log.error("could not start, the application runs unprotected", t);
    }
  }

  private static Running run(AgentOptions options, AgentLog log, Instrumentation inst) {
    RuleSet rules = RulesFile.loadAtStart(options.rules(), log);
    CpuSampler cpu = new CpuSampler();
    Engine engine = new Engine(Clock.SYSTEM, cpu, Sleeper.SYSTEM);
    engine.apply(rules);
    Levee.install(new LeveeDispatcher(engine, new ServletKeys(), new ErrorLog(log, Clock.SYSTEM)));
    List<Integration> integrations = Integrations.all(log);
    ResettableClassFileTransformer transformer = AgentInstaller.install(inst, integrations, log);
    Observability observability = Observability.start(engine, cpu, options.http(), log);
    log.info(
        "started: " + rules.resources.size() + " resources from " + rules.source + "; integrations "
            + names(integrations));
    return new Running(engine, cpu, transformer, observability);
  }

  private static String names(List<Integration> integrations) {
    StringBuilder s = new StringBuilder();
    for (Integration i : integrations) {
      s.append(s.length() == 0 ? "" : ", ").append(i.name());
    }
    return s.toString();
  }

  /** What a start leaves running. */
  static final class Running {
    final Engine engine;
    final CpuSampler cpu;
    final ResettableClassFileTransformer transformer;
    /** Breaker and reload log lines, block summaries, and the {@code http} endpoint: close on detach. */
    final Observability observability;

    Running(
        Engine engine,
        CpuSampler cpu,
        ResettableClassFileTransformer transformer,
        Observability observability) {
      this.engine = engine;
      this.cpu = cpu;
      this.transformer = transformer;
      this.observability = observability;
    }
  }
}
