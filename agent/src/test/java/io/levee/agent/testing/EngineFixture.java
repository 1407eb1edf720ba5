package io.levee.agent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.agent.log.EventLog;
import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Permit;
import io.levee.rules.engine.Engine;
import io.levee.rules.engine.Sleeper;
import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RulesLoader;
import io.levee.rules.model.RuleSet;
import io.levee.rules.policy.adaptive.ManualCpu;
import io.levee.rules.time.ManualClock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real engine on a manual clock and a fixed CPU load, rules from YAML, and helpers that run
 * scripted calls through it; plus an {@link EventLog} that keeps its lines.
 */
public final class EngineFixture {
  public final ManualClock clock = new ManualClock();
  public final ManualCpu cpu = new ManualCpu(0.25);
  public final Engine engine =
      new Engine(
          clock,
          cpu,
          new Sleeper() {
            @Override
            public void sleepNanos(long nanos) {}
          });
  public final Lines log = new Lines();

  public EngineFixture apply(String yaml) {
    engine.apply(rules(yaml));
    return this;
  }

  public static RuleSet rules(String yaml) {
    LoadResult result = RulesLoader.parse("rules.yaml", "version: 1\n" + yaml);
    assertThat(result.errors()).isEmpty();
    return result.rules();
  }

  public static LoadResult parse(String yaml) {
    return RulesLoader.parse("rules.yaml", "version: 1\n" + yaml);
  }

  public Object get(String path) {
    return engine.servlet("GET", path, null, null);
  }

  /** Completes {@code permit} with an HTTP status after it ran {@code millis}. */
  public void complete(Object permit, int status, long millis) {
    assertThat(permit).isInstanceOf(Permit.class);
    engine.complete(permit, clock.nanoTime() - millis * 1_000_000L, status, null);
  }

  public static void assertBlocked(Object decision, String reason) {
    assertThat(decision).isInstanceOf(Blocked.class);
    assertThat(((Blocked) decision).reason).isEqualTo(reason);
  }

  /** An event log that keeps {@code LEVEL message} lines; debug lines only while debugging. */
  public static final class Lines implements EventLog {
    public final List<String> lines = new CopyOnWriteArrayList<>();
    public volatile boolean debugging;

    @Override
    public boolean debugging() {
      return debugging;
    }

    @Override
    public void debug(String message) {
      if (debugging) {
        lines.add("DEBUG " + message);
      }
    }

    @Override
    public void info(String message) {
      lines.add("INFO " + message);
    }

    @Override
    public void warn(String message) {
      lines.add("WARN " + message);
    }

    @Override
    public void error(String message) {
      lines.add("ERROR " + message);
    }
  }
}
