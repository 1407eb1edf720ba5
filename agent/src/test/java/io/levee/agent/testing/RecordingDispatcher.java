package io.levee.agent.testing;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Permit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The bridge's dispatcher for the agent's tests: records every decision and outcome, and answers
 * every call with one token (a fixed permit unless told otherwise: {@link #blockWith}, {@link
 * #answering}), or throws as a broken agent would ({@link #failing}).
 */
public final class RecordingDispatcher extends Dispatcher {
  /**
   * One decision: the kind ({@code servlet}, {@code jdbc}, {@code connect}) and its plain values.
   */
  public record Decision(String kind, String first, String second, Object request, Thread thread) {}

  /** One outcome reported through {@code exit}. */
  public record Outcome(Object token, int status, Throwable error, Thread thread) {
    /** What was reported, without the thread it was reported on. */
    public Reported reported() {
      return new Reported(token, status, error);
    }
  }

  /** An outcome's token, status and error, to compare with an expected one. */
  public record Reported(Object token, int status, Throwable error) {}

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
  private volatile boolean answers;
  private volatile Object answer;
  private volatile RuntimeException failure;
  private volatile Runnable onExit;
  private volatile boolean readsSql = true;

  /** What {@link #jdbcReadsSql} answers from now on, for every URL; true until set. */
  public void readsSql(boolean reads) {
    this.readsSql = reads;
  }

  @Override
  public boolean jdbcReadsSql(String jdbcUrl) {
    return readsSql;
  }

  public void admitWith(Permit p) {
    this.permit = p;
  }

  /** Every call is blocked with {@code b} from now on; null admits again. */
  public void blockWith(Blocked b) {
    this.blocked = b;
  }

  /**
   * What every call gets from now on: a {@link Permit}, a {@link Blocked}, or null (not tracked).
   */
  public RecordingDispatcher answering(Object token) {
    this.answer = token;
    this.answers = true;
    return this;
  }

  /** Every enter throws {@code e} from now on, as a broken agent would. */
  public RecordingDispatcher failing(RuntimeException e) {
    this.failure = e;
    return this;
  }

  /**
   * Runs inside {@code exit}, before the woven code finishes: sees the call's state as the call
   * ended.
   */
  public void onExit(Runnable action) {
    this.onExit = action;
  }

  private Object decide(String kind, String first, String second, Object request) {
    decisions.add(new Decision(kind, first, second, request, Thread.currentThread()));
    RuntimeException e = failure;
    if (e != null) {
      throw e;
    }
    if (answers) {
      return answer;
    }
    Blocked b = blocked;
    return b != null ? b : permit;
  }

  @Override
  public Object httpEnter(String method, String url) {
    return decide("http", method, url, null);
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

  public static Permit permit(int connectTimeoutMillis, int readTimeoutMillis) {
    return new Permit(connectTimeoutMillis, readTimeoutMillis, 0) {};
  }

  /** An http call's answer to a breaker that is open, without a fallback. */
  public static Blocked blocked() {
    return new Blocked(
        "payments",
        "circuit-open",
        "levee: payments blocked (circuit-open)",
        503,
        -1,
        "",
        "text/plain",
        new String[0],
        false,
        null);
  }

  /** An http call's fallback answer. */
  public static Blocked fallback(int status, String body, String... headers) {
    return new Blocked(
        "payments",
        "circuit-open",
        "levee: payments blocked (circuit-open)",
        status,
        -1,
        body,
        "text/plain; charset=utf-8",
        headers,
        true,
        null);
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
