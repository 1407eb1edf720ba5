package io.levee.it.http;

import java.util.Map;

/**
 * The last good answer through OkHttp 5.x (okhttp-jvm, okio 3), from {@code client-lines/okhttp5}.
 */
class LastGoodOkHttp5Jdk17IT extends LastGoodContract {
  @Override
  protected int jdk() {
    return 17;
  }

  @Override
  protected String line() {
    return "okhttp5";
  }

  @Override
  protected Map<String, String> clients() {
    return Map.of("okhttp", "okhttp-jvm-5.3.2.jar");
  }
}
