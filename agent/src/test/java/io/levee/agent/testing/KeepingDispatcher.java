package io.levee.agent.testing;

import io.levee.bootstrap.Dispatcher;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.http.LastGoodKeeper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Admits every http call and keeps the last good answer of each: records what the client's calls
 * asked to keep ({@code "METHOD URL STATUS"}) and the bodies they handed over whole.
 */
public final class KeepingDispatcher extends Dispatcher {
  public final List<String> asked = new CopyOnWriteArrayList<>();
  public final List<String> kept = new CopyOnWriteArrayList<>();
  private final Permit permit = new Permit(0, 0, 0) {};

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
    return new LastGoodKeeper(1024) {
      @Override
      public void keep(byte[] body, int length) {
        kept.add(new String(body, 0, length, StandardCharsets.UTF_8));
      }
    };
  }
}
