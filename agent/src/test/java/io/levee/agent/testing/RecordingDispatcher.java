package io.levee.agent.testing;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Permit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A dispatcher that answers every http call with one configured token and records what it saw. */
public final class RecordingDispatcher extends Dispatcher {
  public record Decision(String method, String url) {}

  public record Outcome(Object token, int status, Throwable error) {}

  public final List<Decision> decisions = new CopyOnWriteArrayList<>();
  public final List<Outcome> outcomes = new CopyOnWriteArrayList<>();
  public final List<Throwable> internalErrors = new CopyOnWriteArrayList<>();
  private volatile Object answer;
  private volatile RuntimeException failure;

  public static Permit permit(int connectTimeoutMillis, int readTimeoutMillis) {
    return new Permit(connectTimeoutMillis, readTimeoutMillis, 0) {};
  }

  public static Blocked blocked() {
    return new Blocked(
        "payments", "circuit-open", "levee: payments blocked (circuit-open)", 503, -1, "", "text/plain",
        new String[0], false, null);
  }

  public static Blocked fallback(int status, String body, String... headers) {
    return new Blocked(
        "payments", "circuit-open", "levee: payments blocked (circuit-open)", status, -1, body,
        "text/plain; charset=utf-8", headers, true, null);
  }

  /** What every http call gets: a {@link Permit}, a {@link Blocked}, or null (not tracked). */
  public RecordingDispatcher answering(Object token) {
    this.answer = token;
    return this;
  }

  public RecordingDispatcher failing(RuntimeException e) {
    this.failure = e;
    return this;
  }

  @Override
  public Object httpEnter(String method, String url) {
    decisions.add(new Decision(method, url));
    if (failure != null) {
      throw failure;
    }
    return answer;
  }

  @Override
  public void exit(Object token, long startNanos, int status, Throwable error) {
    outcomes.add(new Outcome(token, status, error));
  }

  @Override
  public void internalError(Throwable error) {
    internalErrors.add(error);
  }
}
