package io.levee.agent.testsupport;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Permit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A dispatcher that records every decision and outcome, admits with a fixed permit, or blocks every
 * call once {@link #blockWith} is set.
 */
public final class RecordingDispatcher extends Dispatcher {
  /**
   * One decision: the kind ({@code servlet}, {@code jdbc}, {@code connect}) and its plain values.
   */
  public record Decision(String kind, String first, String second, Object request, Thread thread) {}

  /** One outcome reported through {@code exit}. */
  public record Outcome(Object token, int status, Throwable error, Thread thread) {}

  public static final class TestPermit extends Permit {
    public TestPermit(int queryTimeoutSeconds) {
      super(0, 0, queryTimeoutSeconds);
    }
  }

  public final List<Decision> decisions = new CopyOnWriteArrayList<>();
  public final List<Outcome> outcomes = new CopyOnWriteArrayList<>();
  public final List<Throwable> internalErrors = new CopyOnWriteArrayList<>();
  private volatile Permit permit = new TestPermit(0);
  private volatile Blocked blocked;
  private volatile Runnable onExit;

  public void admitWith(Permit p) {
    this.permit = p;
  }

  public void blockWith(Blocked b) {
    this.blocked = b;
  }

  /**
   * Runs inside {@code exit}, before the woven code finishes: sees the call's state as the call ended.
   */
  public void onExit(Runnable action) {
    this.onExit = action;
  }

  private Object decide(String kind, String first, String second, Object request) {
    decisions.add(new Decision(kind, first, second, request, Thread.currentThread()));
    Blocked b = blocked;
    return b != null ? b : permit;
  }

  @Override
  public Object servletEnter(String method, String path, Object request, Object keys) {
    return decide("servlet", method, path, request);
  }

  @Override
  public Object jdbcEnter(String jdbcUrl, String sql) {
    return decide("jdbc", jdbcUrl, sql, null);
  }

  @Override
  public Object jdbcConnect(String jdbcUrl) {
    return decide("connect", jdbcUrl, null, null);
  }

  @Override
  public void exit(Object token, long startNanos, int status, Throwable error) {
    Runnable action = onExit;
    if (action != null) {
      action.run();
    }
    outcomes.add(new Outcome(token, status, error, Thread.currentThread()));
  }

  @Override
  public void internalError(Throwable error) {
    internalErrors.add(error);
  }

  /**
   * Decisions of one kind made on the calling thread (pools and containers decide on others too).
   */
  public List<Decision> onThisThread(String kind) {
    Thread me = Thread.currentThread();
    return decisions.stream().filter(d -> d.kind().equals(kind) && d.thread() == me).toList();
  }

  public List<Outcome> outcomesOnThisThread() {
    Thread me = Thread.currentThread();
    return outcomes.stream().filter(o -> o.thread() == me).toList();
  }

  public static Blocked blocked(int status, int retryAfter, String body, String... headers) {
    return new Blocked(
        "test",
        "rate-limit",
        "levee: test blocked by rate-limit",
        status,
        retryAfter,
        body,
        "text/plain; charset=utf-8",
        headers,
        false,
        "53000");
  }
}
