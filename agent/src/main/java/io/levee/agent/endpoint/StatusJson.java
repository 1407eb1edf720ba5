package io.levee.agent.endpoint;

import io.levee.agent.log.Version;
import io.levee.bootstrap.Faults;
import io.levee.rules.engine.Engine;
import io.levee.rules.engine.Outcome;
import io.levee.rules.engine.Reason;
import io.levee.rules.engine.ResourceStatus;
import io.levee.rules.model.ClusterSettings;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The status table as JSON, for {@code /status}: the same rows as the {@code status} command, one
 * object per resource in force (then {@code system}), written by hand so the agent carries no JSON
 * library.
 *
 * <pre>
 * {"rules":"/etc/levee.yaml","version":"0.1.0","loaded":"2026-12-03T10:20:49Z","rejected":null,
 *   "resources":[{"name":"checkout","kind":"servlet",
 *   "mode":"enforce",
 *   "breaker":"closed","limit":20,"inFlight":3,"passed":1200,
 *   "blocked":{"circuit-open":0,"rate-limit":41,...},"wouldBlock":{...},
 *   "calls":{"success":1190,"failure":7,"slow":0,"ignored":0},
 *   "durationSeconds":12.5,"keysEvicted":0,"scope":"local","instances":null,"matched":1241,
 *   "breakerRamp":null,"breakerProbeDue":false}]}
 * </pre>
 *
 * {@code breaker} is {@code closed}, {@code open}, {@code half-open} or null without a breaker;
 * {@code limit} is null without a concurrency or adaptive limit; {@code matched} counts the calls
 * the resource decided on since its rule took effect ({@code passed} and every {@code blocked}).
 * {@code breakerRamp} is the percentage of calls a breaker that just closed admits now (10, 25,
 * 50), null when it is not ramping; {@code breakerProbeDue} is true for an open breaker whose open
 * time is up (the next call probes), null without a breaker. Both come last: readers match the
 * fields before them in this order.
 */
public final class StatusJson {
  private static final String[] BREAKER = {"closed", "open", "half-open"};

  private StatusJson() {}

  /** {@code source} names the rules in force (may be null). */
  public static String write(String source, List<ResourceStatus> status) {
    return write(source, status, null, Engine.CLUSTER_NONE);
  }

  /**
   * With {@code cluster} (null without) and the engine's {@link Engine#clusterConnected()}: while a
   * resource is cluster-scoped, {@code "cluster":{"name":…,"redis":…,"connected":true}}, the
   * address without its password.
   */
  public static String write(
      String source, List<ResourceStatus> status, ClusterSettings cluster, int connected) {
    return write(source, status, cluster, connected, null);
  }

  /**
   * With {@code events} (null without): when the rules took effect and the last rejected reload, as
   * {@link RulesEvents#json} writes them after {@code "version"}.
   */
  public static String write(
      String source,
      List<ResourceStatus> status,
      ClusterSettings cluster,
      int connected,
      RulesEvents events) {
    StringBuilder out = new StringBuilder(256 + 512 * status.size());
    out.append("{\"rules\":");
    string(out, source);
    out.append(",\"version\":");
    string(out, Version.current());
    if (events != null) {
      events.json(out);
    }
    boolean scoped = false;
    for (ResourceStatus r : status) {
      scoped |= r.instances >= 0;
    }
    if (cluster != null && scoped) {
      out.append(",\"cluster\":{\"name\":");
      string(out, cluster.name);
      out.append(",\"redis\":");
      string(out, cluster.redis.toString());
      out.append(",\"connected\":").append(connected == Engine.CLUSTER_UP).append('}');
    }
    out.append(",\"resources\":[");
    for (int i = 0; i < status.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      resource(out, status.get(i));
    }
    out.append(']');
    if (Faults.enabled()) {
      // Fault mode only: how often each point threw, so a fault test can prove it reached them.
      out.append(",\"faults\":{");
      for (int p = 0; p < Faults.COUNT; p++) {
        out.append(p > 0 ? "," : "");
        string(out, Faults.name(p));
        out.append(':').append(Faults.thrown(p));
      }
      out.append('}');
    }
    return out.append('}').toString();
  }

  private static void resource(StringBuilder out, ResourceStatus r) {
    out.append("{\"name\":");
    string(out, r.name);
    out.append(",\"kind\":");
    string(out, r.kind);
    out.append(",\"mode\":");
    string(out, r.mode.name().toLowerCase(Locale.ROOT));
    out.append(",\"breaker\":");
    string(
        out,
        r.breakerState >= 0 && r.breakerState < BREAKER.length ? BREAKER[r.breakerState] : null);
    out.append(",\"limit\":").append(r.limit >= 0 ? String.valueOf(r.limit) : "null");
    out.append(",\"inFlight\":").append(r.inFlight);
    out.append(",\"passed\":").append(r.passed);
    out.append(",\"blocked\":");
    reasons(out, r.blocked);
    out.append(",\"wouldBlock\":");
    reasons(out, r.wouldBlock);
    out.append(",\"calls\":{");
    boolean first = true;
    for (Map.Entry<Outcome, Long> e : r.calls.entrySet()) {
      out.append(first ? "" : ",");
      string(out, e.getKey().key);
      out.append(':').append(e.getValue());
      first = false;
    }
    out.append("},\"durationSeconds\":").append(r.durationSumNanos / 1e9);
    out.append(",\"keysEvicted\":").append(r.keysEvicted);
    out.append(",\"scope\":");
    string(out, r.scope);
    out.append(",\"instances\":").append(r.instances >= 0 ? String.valueOf(r.instances) : "null");
    out.append(",\"matched\":").append(r.matched());
    out.append(",\"breakerRamp\":")
        .append(r.breakerRamp > 0 ? String.valueOf(r.breakerRamp) : "null");
    out.append(",\"breakerProbeDue\":")
        .append(r.breakerState >= 0 ? String.valueOf(r.probeDue) : "null");
    out.append('}');
  }

  private static void reasons(StringBuilder out, Map<Reason, Long> counts) {
    out.append('{');
    boolean first = true;
    for (Map.Entry<Reason, Long> e : counts.entrySet()) {
      out.append(first ? "" : ",");
      string(out, e.getKey().key);
      out.append(':').append(e.getValue());
      first = false;
    }
    out.append('}');
  }

  static void string(StringBuilder out, String s) {
    if (s == null) {
      out.append("null");
      return;
    }
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || c == 0x2028 || c == 0x2029) {
        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    out.append('"');
  }
}
