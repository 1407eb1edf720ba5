package io.levee.rules.policy.adaptive.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.rules.model.AdaptiveSpec;
import io.levee.rules.model.Priority;
import org.junit.jupiter.api.Test;

/**
 * The {@code system} limit with its defaults in front of the simulated containers (two cores, and
 * the benchmark's Tomcat on one CPU) through the overload step, 0.5C, 2C, 0.5C, on the CPU-bound
 * page split into three pages: critical 10 %, normal 45 % and sheddable 45 % of the requests. Each
 * run is compared with the same three pages all normal: the limit without priorities. Judged from 2
 * s after the step to 2C until its end, as the step scenario's goodput is. Every number is a
 * simulated outcome; nothing here reads a clock.
 */
class PrioritySimulationTest {
  private static final long[] SEEDS = {1, 2, 3};
  private static final Scenario.Server[] SERVERS = {
    Scenario.Server.TWO_CORES, Scenario.Server.ONE_CPU
  };
  private static final double FROM = 12;
  private static final double TO = 30;

  /** One simulated run: {@code ranked} with the pages' priorities, else all normal. */
  private record Run(Metrics metrics) {
    static Run of(Scenario.Server server, boolean ranked, long seed) {
      ServerModel.Mix mix = new ServerModel.Mix(0.10, 0.45, ranked);
      Admission levee = Admission.levee(AdaptiveSpec.defaults());
      return new Run(new ServerModel(Scenario.step(server), levee, seed, mix).run());
    }

    double admittedShare(Priority priority) {
      return metrics.admittedShare(priority, FROM, TO);
    }

    long admitted() {
      return metrics.admitted(FROM, TO);
    }

    double goodput() {
      return metrics.goodput(true, FROM, TO);
    }
  }

  @Test
  void admitsCriticalRequestsAlmostAlwaysAtTwiceCapacity() {
    for (Scenario.Server server : SERVERS) {
      for (long seed : SEEDS) {
        assertThat(Run.of(server, true, seed).admittedShare(Priority.CRITICAL))
            .as("critical admitted, %s, seed %s", server.name(), seed)
            .isGreaterThanOrEqualTo(0.98);
        // Without priorities the limit turns critical requests away like any other.
        assertThat(Run.of(server, false, seed).admittedShare(Priority.CRITICAL))
            .as("critical admitted without priorities, %s, seed %s", server.name(), seed)
            .isLessThan(0.8);
      }
    }
  }

  @Test
  void shedsSheddableRequestsFirst() {
    for (Scenario.Server server : SERVERS) {
      for (long seed : SEEDS) {
        Run ranked = Run.of(server, true, seed);
        double normal = ranked.admittedShare(Priority.NORMAL);
        double sheddable = ranked.admittedShare(Priority.SHEDDABLE);
        assertThat(sheddable)
            .as("sheddable admitted, %s, seed %s", server.name(), seed)
            .isLessThanOrEqualTo(0.2)
            .isLessThanOrEqualTo(0.25 * normal);
        // What the normal page gets back: the limit's room beyond the critical requests.
        assertThat(normal)
            .as("normal admitted, %s, seed %s", server.name(), seed)
            .isGreaterThanOrEqualTo(0.6)
            .isGreaterThan(Run.of(server, false, seed).admittedShare(Priority.NORMAL) + 0.15);
      }
    }
  }

  @Test
  void admitsAsManyRequestsInAllAsTheLimitWithoutPriorities() {
    for (Scenario.Server server : SERVERS) {
      for (long seed : SEEDS) {
        Run ranked = Run.of(server, true, seed);
        Run unranked = Run.of(server, false, seed);
        // Within 2 %: the sheddable requests kept to the bottom half of the limit leave it idle
        // a little more often than when they could fill it (PriorityBands).
        assertThat((double) ranked.admitted())
            .as("admitted with priorities, %s, seed %s", server.name(), seed)
            .isGreaterThanOrEqualTo(0.98 * unranked.admitted());
        assertThat(ranked.goodput())
            .as("goodput with priorities, %s, seed %s", server.name(), seed)
            .isGreaterThanOrEqualTo(0.98 * unranked.goodput());
        assertThat(ranked.goodput())
            .as("goodput with priorities / C, %s, seed %s", server.name(), seed)
            .isGreaterThanOrEqualTo(0.9 * server.c());
      }
    }
  }
}
