package io.levee.agent.lifecycle;

import io.levee.agent.args.AgentOptions;
import io.levee.agent.args.Reply;
import io.levee.agent.instrument.AgentInstaller;
import io.levee.agent.instrument.RuleWeaving;
import io.levee.agent.instrument.Weaver;
import io.levee.agent.log.AgentLog;
import io.levee.agent.rulesfile.RulesTarget;
import io.levee.agent.rulesfile.RulesWatcher;
import io.levee.bootstrap.Levee;
import io.levee.rules.engine.Engine;
import io.levee.rules.load.RuleError;
import io.levee.rules.model.RuleSet;
import java.io.Closeable;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a start leaves running in the JVM, and how it goes away again: the engine, the rules file
 * and its reload thread, the class file transformer, and whatever other parts of the agent hooked
 * themselves in ({@link #onRulesApplied}, {@link #onStop}: metrics, the endpoint, the CPU sampler).
 *
 * <p>Concurrency: built and stopped by {@link AgentControl} under its lock; the rules listeners are
 * called by the thread that applied the rules (the reload thread or a command), the stop hooks by
 * the detaching command. Both lists are copy-on-write, so registering never races with calling.
 */
public final class RunningAgent implements RulesTarget {
  /** Told about each rules file the agent applied or rejected after it started. */
  public interface RulesListener {
    void rulesApplied(RuleSet rules);

    void rulesRejected(String file, List<RuleError> errors);
  }

  private final AgentOptions options;
  private final AgentLog log;
  private final Instrumentation inst;
  private final Engine engine;
  private final RulesWatcher rulesFile;
  private final RuleWeaving methods;
  private final List<RulesListener> listeners = new CopyOnWriteArrayList<RulesListener>();
  private final List<Closeable> stopHooks = new CopyOnWriteArrayList<Closeable>();
  private volatile Weaver transformer;
  private volatile List<RuleError> refusedAtStart = Collections.emptyList();

  public RunningAgent(
      AgentOptions options,
      AgentLog log,
      Instrumentation inst,
      Engine engine,
      RulesWatcher rulesFile,
      RuleWeaving methods) {
    this.options = options;
    this.methods = methods;
    this.log = log;
    this.inst = inst;
    this.engine = engine;
    this.rulesFile = rulesFile;
  }

  /** Calls {@code listener} after every later reload, applied or rejected. */
  public void onRulesApplied(RulesListener listener) {
    listeners.add(listener);
  }

  /** Closes {@code hook} at a detach; hooks close in the reverse order of registration. */
  public void onStop(Closeable hook) {
    stopHooks.add(hook);
  }

  public AgentOptions options() {
    return options;
  }

  public AgentLog log() {
    return log;
  }

  public Engine engine() {
    return engine;
  }

  /** The errors for which the rules file was refused at the start, or none. */
  public void refusedAtStart(List<RuleError> errors) {
    refusedAtStart = Collections.unmodifiableList(new ArrayList<RuleError>(errors));
  }

  public List<RuleError> refusedAtStart() {
    return refusedAtStart;
  }

  /** The transformer to reset at a detach; set once the instrumentation is installed. */
  public void instrumented(Weaver transformer) {
    this.transformer = transformer;
  }

  /** Starts the reload thread; the last step of a start. */
  public void watchRules() {
    rulesFile.start(this);
  }

  public RulesWatcher rulesFile() {
    return rulesFile;
  }

  /**
   * Puts {@code rules} in force (resources left unchanged keep their state) and tells listeners.
   */
  @Override
  public RuleSet rules() {
    return engine.rules();
  }

  @Override
  public List<RuleError> check(String file, RuleSet rules) {
    return methods.check(inst, file, rules);
  }

  /**
   * Puts {@code rules} in force: first for the weaver, then in the engine, then, when the method
   * resources changed, the loaded classes they concern are woven again (until then those classes
   * decide with the resources still in force of the ones they were woven for).
   */
  @Override
  public void apply(RuleSet rules) {
    List<Class<?>> concerned = methods.change(inst, rules);
    engine.apply(rules);
    Weaver weaver = transformer;
    if (concerned != null && weaver != null) {
      AgentInstaller.retransform(inst, weaver, concerned);
      List<Class<?>> late = methods.straggling(inst, concerned);
      if (!late.isEmpty()) {
        AgentInstaller.retransform(inst, weaver, late);
        concerned = new ArrayList<Class<?>>(concerned);
        concerned.addAll(late);
      }
      methodsWoven(concerned);
    }
    for (RulesListener listener : listeners) {
      try {
        listener.rulesApplied(rules);
      } catch (Throwable t) {
        log.warn("a rules listener failed", t);
      }
    }
  }

  /** The info line a change of the method resources logs, with the classes it retransformed. */
  public void methodsWoven(List<Class<?>> classes) {
    Set<String> names = new TreeSet<String>();
    for (Class<?> c : classes) {
      names.add(c.getName());
    }
    StringBuilder line =
        new StringBuilder("method resources changed: retransformed ")
            .append(names.size())
            .append(names.size() == 1 ? " class" : " classes");
    String sep = ": ";
    for (String name : names) {
      line.append(sep).append(name);
      sep = ", ";
    }
    log.info(line.toString());
  }

  @Override
  public void rejected(String file, List<RuleError> errors) {
    for (RulesListener listener : listeners) {
      try {
        listener.rulesRejected(file, errors);
      } catch (Throwable t) {
        log.warn("a rules listener failed", t);
      }
    }
  }

  /** Undoes a start that failed half-way, as a detach would. */
  public void abandon() {
    stop(new Reply(null));
  }

  /**
   * Detach: no more reloads; every call admitted from now on (the no-op dispatcher first, so
   * nothing is blocked while the classes are being restored); the original bytecode back; then
   * every stop hook. Calls still inside instrumented code finish against the no-op and release
   * nothing.
   */
  public void stop(Reply reply) {
    rulesFile.stop();
    Levee.install(null);
    Weaver t = transformer;
    if (t != null) {
      try {
        if (!AgentInstaller.reset(inst, t)) {
          reply.line("the instrumentation was already removed");
        }
      } catch (Throwable e) {
        log.warn("could not restore every instrumented class", e);
        reply.fail("could not restore every instrumented class: " + e);
      }
    }
    List<Closeable> hooks = new ArrayList<Closeable>(stopHooks);
    Collections.reverse(hooks);
    for (Closeable hook : hooks) {
      try {
        hook.close();
      } catch (Throwable e) {
        log.warn("could not stop " + hook, e);
      }
    }
  }
}
