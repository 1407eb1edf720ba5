package io.levee.load.bench;

import io.levee.load.gen.Phase;
import io.levee.load.gen.Phase.Load;
import io.levee.load.gen.Retries;
import java.util.List;

/**
 * The overload scenarios, as multiples of the calibrated capacity C of {@code /cpu}. Every scenario
 * starts with a warm-up at 0.5C (JIT, connections, the contenders' windows) that the metrics skip.
 * Phases are short so that every contender and scenario fits in about 20 minutes; {@code quick}
 * halves them.
 */
final class Scenarios {
  static final List<String> NAMES =
      List.of("step", "slow-io", "retry", "retry-backoff", "retry-aggressive", Priorities.SCENARIO);
  static final long CPU_DEADLINE_MS = 250;
  static final long IO_DEADLINE_MS = 1000;

  /**
   * /io calls per second, as a multiple of C so that the mix stays below capacity at 20 ms on any
   * machine; with C above 333/s, at 400 ms these calls alone need more than the 200 threads.
   */
  static final double IO_RATE_OF_C = 1.5;

  private Scenarios() {}

  /**
   * How the clients of a scenario retry: {@code retry} once after 0-50 ms, {@code retry-backoff}
   * twice with exponential back-off and full jitter, {@code retry-aggressive} twice at once.
   */
  static Retries retries(String scenario) {
    return switch (scenario) {
      case "retry" -> Retries.ONCE;
      case "retry-backoff" -> Retries.BACKOFF;
      case "retry-aggressive" -> Retries.AGGRESSIVE;
      default -> Retries.NONE;
    };
  }

  /** Whether the scenario is a retry storm: 3C, then 0.7C, with retrying clients. */
  static boolean isRetryStorm(String scenario) {
    return retries(scenario) != Retries.NONE;
  }

  static List<Phase> phases(String scenario, double c, boolean quick) {
    int w = quick ? 3 : 5;
    switch (scenario) {
      case "step":
        return List.of(
            cpu("warm-up", w, 0.5 * c),
            cpu("0.5C", quick ? 4 : 5, 0.5 * c),
            cpu("2C", quick ? 6 : 10, 2 * c),
            cpu("0.5C again", quick ? 5 : 8, 0.5 * c));
      case "slow-io":
        return List.of(
            mixed("warm-up", w, c, 20),
            mixed("downstream 20 ms", quick ? 4 : 5, c, 20),
            mixed("downstream 400 ms", quick ? 6 : 10, c, 400),
            mixed("downstream 20 ms again", quick ? 5 : 8, c, 20));
      case Priorities.SCENARIO:
        return List.of(
            Priorities.phase("warm-up", w, 0.5 * c),
            Priorities.phase("0.5C", quick ? 4 : 5, 0.5 * c),
            Priorities.phase("2C", quick ? 6 : 10, 2 * c),
            Priorities.phase("0.5C again", quick ? 5 : 8, 0.5 * c));
      case "retry", "retry-backoff", "retry-aggressive":
        return List.of(
            cpu("warm-up", w, 0.5 * c),
            cpu("3C", quick ? 5 : 8, 3 * c),
            cpu("0.7C", quick ? 10 : 12, 0.7 * c));
      default:
        throw new IllegalArgumentException("unknown scenario " + scenario + ", one of " + NAMES);
    }
  }

  /** The streams whose sum the report plots: the CPU page, in whatever kinds it is asked. */
  static List<String> plotted(String scenario) {
    return scenario.equals(Priorities.SCENARIO) ? Priorities.KINDS : List.of("cpu");
  }

  /**
   * The scenarios of {@code asked} that {@code contender} plays: the priorities scenario by the two
   * Levees made for it, which play nothing else.
   */
  static List<String> playedBy(String contender, List<String> asked) {
    boolean variant = Priorities.isVariant(contender);
    return asked.stream().filter(s -> s.equals(Priorities.SCENARIO) == variant).toList();
  }

  /**
   * Played once by each application before its scenarios and not measured: a burst at 2C, then 0.5C
   * until the contenders have settled. The scenarios' own 0.5C warm-ups never reject, so without it
   * the first overload of each application also compiled the contenders' and Tomcat's reject paths
   * and accepted the extra connections on the one CPU under test (about 120 JIT compilations and
   * deoptimisations in the first second of the step). The Levees of the priorities scenario warm up
   * on its mix, whose kinds take paths of their own through the limit.
   */
  static List<Phase> jitWarmUp(String contender, double c, boolean quick) {
    if (Priorities.isVariant(contender)) {
      return List.of(
          Priorities.phase("JIT warm-up at 2C", quick ? 1 : 2, 2 * c),
          Priorities.phase("settle", quick ? 5 : 10, 0.5 * c));
    }
    return List.of(
        cpu("JIT warm-up at 2C", quick ? 1 : 2, 2 * c), cpu("settle", quick ? 5 : 10, 0.5 * c));
  }

  static Phase cpu(String name, int seconds, double rate) {
    return new Phase(name, seconds, List.of(new Load("cpu", "/cpu", rate, CPU_DEADLINE_MS)), 20);
  }

  private static Phase mixed(String name, int seconds, double c, long stubMillis) {
    return new Phase(
        name,
        seconds,
        List.of(
            new Load("cpu", "/cpu", 0.5 * c, CPU_DEADLINE_MS),
            new Load("io", "/io", IO_RATE_OF_C * c, IO_DEADLINE_MS)),
        stubMillis);
  }
}
