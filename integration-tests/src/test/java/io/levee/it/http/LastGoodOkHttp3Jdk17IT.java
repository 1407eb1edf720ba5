package io.levee.it.http;

import java.util.Map;

/** The last good answer through OkHttp 3.14 (okio 1.x), from {@code client-lines/okhttp3}. */
class LastGoodOkHttp3Jdk17IT extends LastGoodContract {
  @Override
  protected int jdk() {
    return 17;
  }

  @Override
  protected String line() {
    return "okhttp3";
  }

  @Override
  protected Map<String, String> clients() {
    return Map.of("okhttp", "okhttp-3.14.9.jar");
  }
}
