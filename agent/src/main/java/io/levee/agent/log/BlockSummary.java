package io.levee.agent.log;

import io.levee.rules.engine.Engine;
import io.levee.rules.engine.Reason;
import io.levee.rules.engine.ResourceView;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The periodic summary of blocked calls, so that blocking shows in the log without one line per
 * call: {@code blocked in the last 10s: checkout rate-limit=120, payments circuit-open=8}, and for
 * resources in monitor mode {@code would have blocked in the last 10s (monitor): search
 * concurrency=3}; requests answered with backpressure show as {@code checkout backpressure=4}.
 * Nothing is written for a quiet period.
 *
 * <p>It reads the engine's own counters and keeps the last value it saw per live view, so the hot
 * path counts nothing twice. A view that a reload replaced starts again from zero, as its counters
 * do; a view no longer in force is forgotten.
 *
 * <p>Concurrency: only the log thread calls {@link #run()}; the counters it reads may be a few
 * calls behind, which the next summary picks up.
 */
public final class BlockSummary implements Runnable {
  private static final Reason[] REASONS = Reason.values();

  /**
   * The word for requests answered as blocked because Levee refused one of their calls: counted on
   * the servlet resource (or {@code system}) that answered, not on the refused resource.
   */
  private static final String BACKPRESSURE = "backpressure";

  private final Engine engine;
  private final EventLog log;
  private final String period;
  private Map<ResourceView, long[]> last = new IdentityHashMap<ResourceView, long[]>();

  /** {@code periodSeconds} only names the period in the line; the caller runs it that often. */
  public BlockSummary(Engine engine, EventLog log, long periodSeconds) {
    this.engine = engine;
    this.log = log;
    this.period = periodSeconds + "s";
    summarize();
  }

  @Override
  public void run() {
    String[] lines = summarize();
    if (lines[0] != null) {
      log.info(lines[0]);
    }
    if (lines[1] != null) {
      log.info(lines[1]);
    }
  }

  /** The enforce line and the monitor line since the previous call; null where nothing happened. */
  String[] summarize() {
    StringBuilder enforced = new StringBuilder();
    StringBuilder monitored = new StringBuilder();
    List<ResourceView> views = engine.resources();
    Map<ResourceView, long[]> seen = new IdentityHashMap<ResourceView, long[]>(views.size() * 2);
    for (ResourceView view : views) {
      long[] before = last.get(view);
      long[] now = new long[REASONS.length * 2 + 2];
      for (Reason reason : REASONS) {
        int i = reason.ordinal();
        now[i] = view.blocked(reason);
        now[REASONS.length + i] = view.wouldBlock(reason);
        append(enforced, view.name(), reason.key, now[i] - (before == null ? 0 : before[i]));
        int j = REASONS.length + i;
        append(monitored, view.name(), reason.key, now[j] - (before == null ? 0 : before[j]));
      }
      int b = REASONS.length * 2;
      now[b] = view.backpressured(false);
      now[b + 1] = view.backpressured(true);
      append(enforced, view.name(), BACKPRESSURE, now[b] - (before == null ? 0 : before[b]));
      append(
          monitored, view.name(), BACKPRESSURE, now[b + 1] - (before == null ? 0 : before[b + 1]));
      seen.put(view, now);
    }
    last = seen;
    return new String[] {
      enforced.length() == 0 ? null : "blocked in the last " + period + ": " + enforced,
      monitored.length() == 0
          ? null
          : "would have blocked in the last " + period + " (monitor): " + monitored
    };
  }

  private static void append(StringBuilder line, String resource, String what, long delta) {
    if (delta <= 0) {
      return;
    }
    if (line.length() > 0) {
      line.append(", ");
    }
    line.append(resource).append(' ').append(what).append('=').append(delta);
  }
}
