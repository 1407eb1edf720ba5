package io.levee.agent.otel;

import io.levee.agent.log.AgentLog;
import io.levee.rules.engine.Decisions;
import io.levee.rules.engine.Engine;
import io.levee.rules.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * Connects the engine's decisions to OpenTelemetry's spans ({@link SpanTags}) when the
 * OpenTelemetry Java agent is in the JVM, and leaves the engine without a listener otherwise.
 *
 * <p>Given after Levee with {@code -javaagent}, that agent puts its API on the boot class path only
 * once Levee's start is over, so an engine that did not find it at start is given a {@link Probe}:
 * the first decisions look for the API, at most once per {@link #LOOK_EVERY_NANOS}, and the probe
 * removes itself once it is found or after {@link #LOOKS} looks.
 */
public final class Tracing {
  static final long LOOK_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  static final int LOOKS = 600;

  private Tracing() {}

  /**
   * Call before Levee's class transformer is registered: that order decides which span is whose.
   */
  public static void start(Engine engine, AgentLog log) {
    if (SpanTags.present()) {
      install(engine, false, log);
    } else {
      engine.setDecisions(new Probe(engine, log, Clock.SYSTEM));
    }
  }

  static SpanTags install(Engine engine, boolean inner, AgentLog log) {
    try {
      SpanTags tags = SpanTags.of(inner);
      engine.setDecisions(tags);
      log.info(
          "OpenTelemetry agent found: the spans of the calls Levee decides get levee.resource,"
              + " levee.decision and levee.reason");
      return tags;
    } catch (Throwable t) {
      engine.setDecisions(null);
      log.warn(
          "OpenTelemetry agent found but its API is not the one expected ("
              + t
              + "): spans are not tagged");
      return null;
    }
  }

  /**
   * Looks for the API on the first decisions. Concurrency: {@code nextLook} and {@code looks} race
   * benignly (a look more or less); installing is serialised, so the log says it once.
   */
  static final class Probe implements Decisions {
    private final Engine engine;
    private final AgentLog log;
    private final Clock clock;
    private volatile long nextLook;
    private volatile int looks;
    private boolean found;

    Probe(Engine engine, AgentLog log, Clock clock) {
      this.engine = engine;
      this.log = log;
      this.clock = clock;
      this.nextLook = clock.nanoTime();
    }

    @Override
    public void decided(String resource, String kind, String decision, String reason) {
      long now = clock.nanoTime();
      if (now - nextLook < 0) {
        return;
      }
      nextLook = now + LOOK_EVERY_NANOS;
      if (SpanTags.present()) {
        SpanTags tags = found();
        if (tags != null) {
          tags.decided(resource, kind, decision, reason);
        }
      } else if ((looks += 1) >= LOOKS) {
        engine.setDecisions(null);
      }
    }

    int looks() {
      return looks;
    }

    private synchronized SpanTags found() {
      if (found) {
        return null;
      }
      found = true;
      return install(engine, true, log);
    }
  }
}
