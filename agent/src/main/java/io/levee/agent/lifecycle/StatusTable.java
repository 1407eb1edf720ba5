package io.levee.agent.lifecycle;

import io.levee.rules.engine.Engine;
import io.levee.rules.engine.Reason;
import io.levee.rules.engine.ResourceStatus;
import io.levee.rules.model.Mode;
import io.levee.rules.model.RuleSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code status} answer (SPEC §3): where the rules come from, then one row per resource in
 * force with kind, mode, breaker state, limit, calls in flight, calls passed and calls blocked by
 * reason (in monitor mode: those that would have been blocked, marked {@code would}). The breaker
 * state says what the word alone would hide: {@code closed, ramping 25 %} while a breaker that just
 * closed still refuses most calls, {@code open, probe due} once the open time is up and the next
 * call will probe.
 */
public final class StatusTable {
  private static final String[] HEADER = {
    "RESOURCE", "KIND", "MODE", "BREAKER", "LIMIT", "IN-FLIGHT", "PASSED", "BLOCKED"
  };
  private static final String[] BREAKER = {"closed", "open", "half-open"};

  private StatusTable() {}

  public static String render(RuleSet rules, Path file, List<ResourceStatus> resources) {
    return render(rules, file, resources, Engine.CLUSTER_NONE);
  }

  /**
   * {@code connected}: the engine's {@link Engine#clusterConnected()}; with cluster-scoped limits,
   * a line says where the cluster's budgets live and whether Redis answers, and a column gives each
   * resource's scope and the instances sharing it.
   */
  public static String render(
      RuleSet rules, Path file, List<ResourceStatus> resources, int connected) {
    StringBuilder out = new StringBuilder();
    out.append("rules: ")
        .append(file == null ? "none" : file.toString())
        .append(" (")
        .append(rules.resources.size())
        .append(rules.resources.size() == 1 ? " resource" : " resources")
        .append(", reload ")
        .append(reload(rules.settings.reloadNanos))
        .append(")\n");
    if (resources.isEmpty()) {
      return out.append("no resources in force\n").toString();
    }
    boolean cluster = false;
    for (ResourceStatus r : resources) {
      cluster |= r.instances >= 0;
    }
    if (cluster && rules.settings.cluster != null) {
      out.append("cluster: ")
          .append(rules.settings.cluster)
          .append(", ")
          .append(
              connected == Engine.CLUSTER_UP
                  ? "connected"
                  : connected == Engine.CLUSTER_DOWN ? "unreachable" : "not settled yet")
          .append('\n');
    }
    List<String[]> rows = new ArrayList<String[]>();
    rows.add(cluster ? withScope(HEADER, "SCOPE") : HEADER);
    for (ResourceStatus r : resources) {
      String[] row =
          new String[] {
            r.name,
            r.kind,
            r.mode.name().toLowerCase(Locale.ROOT),
            breaker(r),
            r.limit < 0 ? "-" : String.valueOf(r.limit),
            String.valueOf(r.inFlight),
            String.valueOf(r.passed),
            blocked(r)
          };
      rows.add(cluster ? withScope(row, scope(r)) : row);
    }
    int[] widths = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        line.append(row[i]);
        for (int pad = row[i].length(); i < row.length - 1 && pad < widths[i] + 2; pad++) {
          line.append(' ');
        }
      }
      out.append(line.toString().trim()).append('\n');
    }
    StringBuilder unmatched = new StringBuilder();
    for (ResourceStatus r : resources) {
      if (!"system".equals(r.name) && r.matched() == 0) {
        unmatched.append(unmatched.length() == 0 ? "" : ", ").append(r.name);
      }
    }
    if (unmatched.length() > 0) {
      out.append("no call has matched ")
          .append(unmatched)
          .append(" since the rules were loaded (java -jar levee-agent.jar explain RULES CALL says")
          .append(" why a call misses)\n");
    }
    return out.toString();
  }

  /** {@code row} with {@code scope} after its mode. */
  private static String[] withScope(String[] row, String scope) {
    String[] wider = new String[row.length + 1];
    System.arraycopy(row, 0, wider, 0, 3);
    wider[3] = scope;
    System.arraycopy(row, 3, wider, 4, row.length - 3);
    return wider;
  }

  private static String scope(ResourceStatus r) {
    if (r.instances < 0) {
      return "local";
    }
    return "cluster/" + r.instances;
  }

  private static String breaker(ResourceStatus r) {
    if (r.breakerState < 0) {
      return "-";
    }
    String state = BREAKER[r.breakerState];
    if (r.breakerRamp > 0) {
      return state + ", ramping " + r.breakerRamp + " %";
    }
    return r.probeDue ? state + ", probe due" : state;
  }

  private static String blocked(ResourceStatus r) {
    boolean monitor = r.mode == Mode.MONITOR;
    Map<Reason, Long> counts = monitor ? r.wouldBlock : r.blocked;
    StringBuilder s = new StringBuilder();
    for (Map.Entry<Reason, Long> e : counts.entrySet()) {
      if (e.getValue() > 0) {
        s.append(s.length() == 0 ? "" : " ")
            .append(e.getKey().key)
            .append('=')
            .append(e.getValue());
      }
    }
    if (s.length() == 0) {
      return "0";
    }
    return monitor ? "would " + s : s.toString();
  }

  private static String reload(long nanos) {
    if (nanos <= 0) {
      return "off";
    }
    long millis = nanos / 1_000_000L;
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
  }
}
