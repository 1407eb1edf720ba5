package io.levee.agent;

import io.levee.agent.instrument.AgentInstaller;
import io.levee.agent.instrument.Integration;
import io.levee.agent.lifecycle.AgentControl;
import io.levee.agent.lifecycle.RulesWatcher;
import io.levee.agent.lifecycle.RunningAgent;
import io.levee.bootstrap.Levee;
import io.levee.rules.engine.Engine;
import io.levee.rules.engine.Sleeper;
import io.levee.rules.model.RuleSet;
import io.levee.rules.policy.adaptive.CpuSampler;
import io.levee.rules.time.Clock;
import java.lang.instrument.Instrumentation;
import java.util.List;

/**
 * The agent's start-up, once the bridge is in the boot loader: rules, engine, dispatcher, then the
 * instrumentation, then the reload thread. What it starts is kept in the {@link RunningAgent} it
 * returns, so that a detach can undo it: the transformer to reset, and stop hooks for every thread
 * (the CPU sampler here; metrics and the endpoint register theirs the same way).
 *
 * <p>Concurrency: {@link AgentControl} calls it under its lock, at most once per running agent.
 */
public final class Startup {
  private Startup() {}

  /** Starts everything; {@code attached}: a runtime attach, loaded classes retransformed in batches. */
  public static RunningAgent start(
      AgentOptions options, AgentLog log, Instrumentation inst, boolean attached) {
    RulesWatcher rulesFile = new RulesWatcher(options.rules(), log);
    RuleSet rules = RulesFile.loadAtStart(options.rules(), log);
    CpuSampler cpu = new CpuSampler();
    Engine engine = new Engine(Clock.SYSTEM, cpu, Sleeper.SYSTEM);
    engine.apply(rules);
    engine.setListener(new BreakerLog(log));
    RunningAgent agent = new RunningAgent(options, log, inst, engine, rulesFile);
    agent.onStop(cpu);
    Levee.install(new LeveeDispatcher(engine, new ServletKeys(), new ErrorLog(log, Clock.SYSTEM)));
    List<Integration> integrations = Integrations.all(log);
    agent.instrumented(AgentInstaller.install(inst, integrations, log, attached));
    if (options.http() != null) {
      log.warn("the http endpoint (http=" + options.http() + ") is not available in this version yet");
    }
    agent.watchRules();
    log.info(
        "started: " + rules.resources.size() + " resources from " + rules.source + "; integrations "
            + names(integrations));
    return agent;
  }

  /** One line for the command line that attached the agent. */
  public static String summary(RunningAgent agent) {
    RuleSet rules = agent.engine().rules();
    return "Levee started: " + rules.resources.size() + " resources from " + rules.source;
  }

  private static String names(List<Integration> integrations) {
    StringBuilder s = new StringBuilder();
    for (Integration i : integrations) {
      s.append(s.length() == 0 ? "" : ", ").append(i.name());
    }
    return s.toString();
  }

  /** Circuit breaker transitions are rare and worth a line each. */
  private static final class BreakerLog implements Engine.Listener {
    private static final String[] STATES = {"closed", "open", "half-open"};
    private final AgentLog log;

    BreakerLog(AgentLog log) {
      this.log = log;
    }

    @Override
    public void onTransition(String resource, int from, int to, String why) {
      log.info("circuit breaker of " + resource + ": " + STATES[from] + " -> " + STATES[to] + " (" + why + ")");
    }
  }
}
