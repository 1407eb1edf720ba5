package io.levee.agent.cluster;

import io.levee.agent.lifecycle.RunningAgent;
import io.levee.agent.log.EventLog;
import io.levee.rules.engine.Engine;
import io.levee.rules.load.RuleError;
import io.levee.rules.model.ClusterSettings;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import java.io.Closeable;
import java.util.List;

/**
 * Keeps a {@link Settler} running while the rules in force have cluster-scoped limits, on the
 * {@code settings.cluster} they name: started by the first such rules, replaced when a reload
 * changes the cluster settings, stopped when no limit needs it any more and at a detach.
 *
 * <p>Concurrency: rules come from the thread that applies them, the close from a detach; both under
 * {@code lock}.
 */
public final class ClusterSync implements RunningAgent.RulesListener, Closeable {
  private final Engine engine;
  private final EventLog log;
  private final Object lock = new Object();
  private Settler settler;

  private ClusterSync(Engine engine, EventLog log) {
    this.engine = engine;
    this.log = log;
  }

  /** Starts settling the limits of the rules in force, if they have any. */
  public static ClusterSync start(Engine engine, EventLog log) {
    ClusterSync sync = new ClusterSync(engine, log);
    sync.rulesApplied(engine.rules());
    return sync;
  }

  @Override
  public void rulesApplied(RuleSet rules) {
    ClusterSettings wanted = clusterScoped(rules) ? rules.settings.cluster : null;
    synchronized (lock) {
      if (settler != null && !settler.settings.equals(wanted)) {
        settler.stop();
        settler = null;
        engine.clusterConnected(Engine.CLUSTER_NONE);
      }
      if (wanted != null && settler == null) {
        settler = new Settler(engine, wanted, log);
        settler.start();
      }
    }
  }

  @Override
  public void rulesRejected(String file, List<RuleError> errors) {}

  @Override
  public void close() {
    synchronized (lock) {
      if (settler != null) {
        settler.stop();
        settler = null;
      }
      engine.clusterConnected(Engine.CLUSTER_NONE);
    }
  }

  private static boolean clusterScoped(RuleSet rules) {
    if (rules.settings.cluster == null) {
      return false;
    }
    for (ResourceRule rule : rules.resources) {
      if (rule.rateLimit != null && rule.rateLimit.cluster) {
        return true;
      }
    }
    return false;
  }
}
