package io.levee.rules.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Permit;
import io.levee.rules.load.LoadResult;
import io.levee.rules.load.RulesLoader;
import io.levee.rules.model.RuleSet;
import io.levee.rules.policy.adaptive.ManualCpu;
import io.levee.rules.time.ManualClock;
import java.util.ArrayList;
import java.util.List;

/** An engine on a manual clock, a fixed CPU and a sleeper that only records, plus YAML rules. */
final class Fixture {
  final ManualClock clock = new ManualClock();
  final ManualCpu cpu = new ManualCpu(0.1);
  final List<Long> sleeps = new ArrayList<>();
  final Engine engine =
      new Engine(
          clock,
          cpu,
          new Sleeper() {
            @Override
            public void sleepNanos(long nanos) {
              sleeps.add(nanos);
            }
          });

  Fixture apply(String yaml) {
    engine.apply(rules(yaml));
    return this;
  }

  static RuleSet rules(String yaml) {
    LoadResult result = RulesLoader.parse("test.yaml", "version: 1\n" + yaml);
    assertThat(result.errors()).isEmpty();
    return result.rules();
  }

  ResourceView view(String name) {
    for (ResourceView v : engine.resources()) {
      if (v.name().equals(name)) {
        return v;
      }
    }
    throw new AssertionError("no resource " + name);
  }

  static Permit permit(Object decision) {
    assertThat(decision).isInstanceOf(Permit.class);
    return (Permit) decision;
  }

  static Blocked blocked(Object decision) {
    assertThat(decision).isInstanceOf(Blocked.class);
    return (Blocked) decision;
  }

  Object get(String path) {
    return engine.servlet("GET", path, null, null);
  }

  void ok(Object permit) {
    engine.complete(permit, clock.nanoTime(), 200, null);
  }

  void fail(Object permit) {
    engine.complete(permit, clock.nanoTime(), 500, null);
  }
}
