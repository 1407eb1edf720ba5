package io.levee.agent.endpoint;

import io.levee.rules.engine.Engine;
import io.levee.rules.engine.Reason;
import io.levee.rules.engine.ResourceView;
import io.levee.rules.policy.adaptive.CpuSource;
import java.util.List;
import java.util.Locale;

/**
 * The last {@value #CAPACITY} one-second samples of what the engine already counts, for the live
 * page: per resource its cumulative counters, limit, in-flight calls and breaker state (with its
 * ramp and a due probe), and the process CPU the adaptive limits read. The page turns counters into
 * rates itself, so a sample copies numbers and computes nothing.
 *
 * <p>Memory is bounded by the ring: {@value #CAPACITY} samples of one small array per resource.
 * Nothing here runs on a call's path: {@link #take} reads the same adders as {@code /status}.
 *
 * <p>Concurrency: one thread takes samples, request threads read them; both go through {@code
 * this}.
 */
final class Samples {
  /** Three minutes of one-second samples. */
  static final int CAPACITY = 180;

  private static final Reason[] REASONS = Reason.values();
  private static final int PASSED = 0;
  private static final int BLOCKED = 1;
  private static final int WOULD_BLOCK = BLOCKED + REASONS.length;
  private static final int LIMIT = WOULD_BLOCK + REASONS.length;
  private static final int IN_FLIGHT = LIMIT + 1;
  private static final int BREAKER = IN_FLIGHT + 1;
  private static final int RAMP = BREAKER + 1;
  private static final int PROBE_DUE = RAMP + 1;
  private static final int VALUES = PROBE_DUE + 1;

  private final Engine engine;
  private final CpuSource cpu;
  private final long[] times = new long[CAPACITY];
  private final double[] cpus = new double[CAPACITY];
  private final String[][] names = new String[CAPACITY][];
  private final long[][][] values = new long[CAPACITY][][];
  private int next;
  private int size;

  Samples(Engine engine, CpuSource cpu) {
    this.engine = engine;
    this.cpu = cpu;
  }

  /** Records the engine as it is now, stamped {@code epochMillis}, over the oldest sample. */
  void take(long epochMillis) {
    List<ResourceView> views = engine.resources();
    String[] n = new String[views.size()];
    long[][] v = new long[views.size()][];
    for (int i = 0; i < n.length; i++) {
      ResourceView view = views.get(i);
      long[] row = new long[VALUES];
      row[PASSED] = view.passed();
      for (int r = 0; r < REASONS.length; r++) {
        row[BLOCKED + r] = view.blocked(REASONS[r]);
        row[WOULD_BLOCK + r] = view.wouldBlock(REASONS[r]);
      }
      row[LIMIT] = view.limit();
      row[IN_FLIGHT] = view.inFlight();
      row[BREAKER] = view.breakerState();
      row[RAMP] = view.breakerRamp();
      row[PROBE_DUE] = view.breakerProbeDue() ? 1 : 0;
      n[i] = view.name();
      v[i] = row;
    }
    double load = cpu.cpuLoad();
    synchronized (this) {
      times[next] = epochMillis;
      cpus[next] = load;
      names[next] = n;
      values[next] = v;
      next = (next + 1) % CAPACITY;
      size = Math.min(size + 1, CAPACITY);
    }
  }

  /**
   * The samples stamped after {@code afterMillis}, oldest first, as JSON:
   *
   * <pre>
   * {"interval":1000,"reasons":["circuit-open",…],"samples":[{"t":1764756049000,"cpu":0.42,
   *   "resources":[{"name":"checkout","passed":120,"blocked":[0,5,0,0,0],"wouldBlock":[0,0,0,0,0],
   *   "limit":20,"inFlight":3,"breaker":0,"breakerRamp":25,"breakerProbeDue":false}]}]}
   * </pre>
   *
   * Counters are cumulative since the resource's rule took effect; {@code blocked} and {@code
   * wouldBlock} follow {@code reasons}; {@code limit} and {@code breaker} are -1 without one,
   * {@code breaker} 0 closed, 1 open, 2 half-open. {@code breakerRamp} is the percentage a closed
   * breaker admits while it ramps back up, else 0; {@code breakerProbeDue}, whether an open one is
   * past its open time. Each is read apart from {@code breaker}, so the page heeds each only with
   * the state it belongs to.
   */
  String since(long afterMillis) {
    StringBuilder out = new StringBuilder(1024);
    out.append("{\"interval\":1000,\"reasons\":[");
    for (int r = 0; r < REASONS.length; r++) {
      out.append(r > 0 ? "," : "");
      StatusJson.string(out, REASONS[r].key);
    }
    out.append("],\"samples\":[");
    synchronized (this) {
      boolean first = true;
      for (int k = 0; k < size; k++) {
        int i = (next - size + k + CAPACITY) % CAPACITY;
        if (times[i] <= afterMillis) {
          continue;
        }
        out.append(first ? "" : ",");
        first = false;
        sample(out, i);
      }
    }
    return out.append("]}").toString();
  }

  private void sample(StringBuilder out, int i) {
    out.append("{\"t\":").append(times[i]);
    out.append(",\"cpu\":").append(String.format(Locale.ROOT, "%.3f", cpus[i]));
    out.append(",\"resources\":[");
    for (int j = 0; j < names[i].length; j++) {
      long[] row = values[i][j];
      out.append(j > 0 ? "," : "").append("{\"name\":");
      StatusJson.string(out, names[i][j]);
      out.append(",\"passed\":").append(row[PASSED]);
      out.append(",\"blocked\":");
      array(out, row, BLOCKED);
      out.append(",\"wouldBlock\":");
      array(out, row, WOULD_BLOCK);
      out.append(",\"limit\":").append(row[LIMIT]);
      out.append(",\"inFlight\":").append(row[IN_FLIGHT]);
      out.append(",\"breaker\":").append(row[BREAKER]);
      out.append(",\"breakerRamp\":").append(row[RAMP]);
      out.append(",\"breakerProbeDue\":").append(row[PROBE_DUE] != 0).append('}');
    }
    out.append("]}");
  }

  private static void array(StringBuilder out, long[] row, int from) {
    out.append('[');
    for (int r = 0; r < REASONS.length; r++) {
      out.append(r > 0 ? "," : "").append(row[from + r]);
    }
    out.append(']');
  }
}
