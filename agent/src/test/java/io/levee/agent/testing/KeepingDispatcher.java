package io.levee.agent.testing;

import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.http.LastGoodKeeper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admits every http call and keeps the last good answer of each: records what the client's calls
 * asked to keep ({@code "METHOD URL STATUS"}), the response headers they passed (joined by spaces),
 * the bodies they handed over whole, how many outcomes were reported, and the internal errors
 * reported.
 */
public final class KeepingDispatcher extends Dispatcher {
  public final Permit permit = new Permit(0, 0, 0) {};
  public final List<String> asked = new CopyOnWriteArrayList<>();
  public final List<String> headers = new CopyOnWriteArrayList<>();
  public final List<String> kept = new CopyOnWriteArrayList<>();
  public final AtomicInteger exits = new AtomicInteger();
  public final List<Throwable> errors = new CopyOnWriteArrayList<>();

  @Override
  public Object httpEnter(String method, String url) {
    return permit;
  }

  @Override
  public boolean keepsLastGood(Object token) {
    return true;
  }

  @Override
  public LastGoodKeeper lastGood(
      Object token, String method, String url, int status, String[] headers) {
    asked.add(method + " " + url + " " + status);
    this.headers.add(String.join(" ", headers));
    return new LastGoodKeeper(1024) {
      @Override
      public void keep(byte[] body, int length) {
        kept.add(new String(body, 0, length, StandardCharsets.UTF_8));
      }
    };
  }

  @Override
  public void exit(Object token, long startNanos, int status, Throwable error) {
    exits.incrementAndGet();
  }

  @Override
  public void internalError(Throwable error) {
    errors.add(error);
  }
}
