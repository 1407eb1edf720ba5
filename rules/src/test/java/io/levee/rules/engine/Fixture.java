package io.levee.rules.engine;

import static io.levee.rules.testing.TestRules.file;
import static io.levee.rules.testing.TestRules.load;
import static org.assertj.core.api.Assertions.assertThat;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Permit;
import io.levee.rules.policy.adaptive.ManualCpu;
import io.levee.rules.time.ManualClock;
import java.util.ArrayList;
import java.util.List;

/** An engine on a manual clock, a fixed CPU and a sleeper that only records, and its helpers. */
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

  /** Applies the rules file of {@code version: 1} followed by {@code yaml}. */
  Fixture apply(String yaml) {
    engine.apply(load(file(yaml)));
    return this;
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
