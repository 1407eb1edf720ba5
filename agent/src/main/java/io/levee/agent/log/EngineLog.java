package io.levee.agent.log;

import io.levee.rules.engine.Engine;

/**
 * What the engine tells the agent's log as it happens. One line per circuit breaker transition:
 * {@code circuit breaker payments: closed -> open (failure rate 60% over 20 calls >= 50%)}; closing
 * gives the ramp's steps and their length, which the breaker words once: {@code half-open -> closed
 * (probes succeeded; ramping calls back up: 10 %, 25 %, then 50 % of calls for 1s each, then all)}.
 * Opening is a warning, the rest is information. In monitor mode the breaker refuses nothing, so
 * its opening is information too and the line says so: {@code circuit breaker search (monitor,
 * nothing refused): closed -> open (...)}. The engine calls it on the application thread that moved
 * the breaker, so it only builds the line and posts it to a {@link LogThread}; transitions are
 * rare, so the string is not a hot-path cost.
 *
 * <p>At {@code log=debug}, also one line per window of every adaptive limit, the {@code system}
 * limit's included: {@code limit system: 48 -> 72, grow: latency flat, limit used (median 12.1 ms =
 * 1.10 x baseline 11.0 ms, ...)}. Windows close every 50 ms to 1 s, so these lines are for a
 * diagnosis, not for production; below {@code debug} the engine builds none.
 */
public final class EngineLog implements Engine.Listener {
  private static final String[] STATES = {"closed", "open", "half-open"};

  private final EventLog log;

  public EngineLog(EventLog log) {
    this.log = log;
  }

  @Override
  public void onTransition(String resource, boolean monitor, int from, int to, String why) {
    String line =
        "circuit breaker "
            + resource
            + (monitor ? " (monitor, nothing refused)" : "")
            + ": "
            + state(from)
            + " -> "
            + state(to)
            + (why == null || why.isEmpty() ? "" : " (" + why + ")");
    if (to == 1 && !monitor) {
      log.warn(line);
    } else {
      log.info(line);
    }
  }

  @Override
  public boolean tracesLimits() {
    return log.debugging();
  }

  @Override
  public void onLimitWindow(String resource, String line) {
    log.debug("limit " + resource + ": " + line);
  }

  static String state(int state) {
    return state >= 0 && state < STATES.length ? STATES[state] : String.valueOf(state);
  }
}
