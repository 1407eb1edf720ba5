package io.levee.load.bench;

import io.levee.load.gen.Phase;
import io.levee.load.gen.Phase.Load;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code priorities} scenario: the step's load on the CPU page, made of three kinds of request
 * that the application serves alike ({@code /cpu/critical}, {@code /cpu/normal}, {@code
 * /cpu/sheddable}) and that Levee's rules name as three servlet resources. It is played by Levee
 * only, twice: with each resource's priority ({@link #RANKED}) and with all three {@code normal}
 * ({@link #UNRANKED}), the same resources and so the same pages in the system limit, so that the
 * two differ by the ranking alone. The other contenders have no notion of a request's priority: on
 * them the three kinds would be one page, and the run would show nothing the step does not.
 */
final class Priorities {
  static final String SCENARIO = "priorities";
  static final String RANKED = "levee-ranked";
  static final String UNRANKED = "levee-unranked";

  /** The kinds of request, in the report's order, with their shares of the load. */
  static final List<String> KINDS = List.of("critical", "normal", "sheddable");

  private static final double[] SHARES = {0.10, 0.45, 0.45};

  private Priorities() {}

  static String path(String kind) {
    return "/cpu/" + kind;
  }

  /**
   * The loads of a phase offering {@code rate} requests a second in all: each kind its own
   * constant-rate stream at its share, so the counts offered per kind are exact rather than drawn,
   * and the three streams interleave as a mix at the server.
   */
  static List<Load> loads(double rate) {
    List<Load> loads = new ArrayList<>();
    for (int i = 0; i < KINDS.size(); i++) {
      String kind = KINDS.get(i);
      loads.add(new Load(kind, path(kind), SHARES[i] * rate, Scenarios.CPU_DEADLINE_MS));
    }
    return loads;
  }

  static Phase phase(String name, int seconds, double rate) {
    return new Phase(name, seconds, loads(rate), 20);
  }

  /** Whether {@code contender} is one of the two Levees that play this scenario (and only it). */
  static boolean isVariant(String contender) {
    return contender.equals(RANKED) || contender.equals(UNRANKED);
  }

  /**
   * The harness's system rule with one resource per kind: its own priority when {@code ranked},
   * else {@code normal} (a resource may exist only to set a priority, not with nothing at all).
   */
  static String rules(boolean ranked) {
    StringBuilder b = new StringBuilder(Harness.SYSTEM_RULES).append("resources:\n");
    for (String kind : KINDS) {
      b.append("  - name: ")
          .append(kind)
          .append("\n    match: { servlet: { paths: [\"")
          .append(path(kind))
          .append("\"] } }\n    priority: ")
          .append(ranked ? kind : "normal")
          .append('\n');
    }
    return b.toString();
  }
}
