package io.levee.it.http;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last good answer on JDK 17 through {@code HttpURLConnection}, Apache HttpClient 4.5, 5
 * classic and 5 async, OkHttp 4.12 and the JDK's {@code HttpClient}, in one application.
 */
class LastGoodJdk17IT extends LastGoodContract {
  @Override
  protected int jdk() {
    return 17;
  }

  @Override
  protected Map<String, String> clients() {
    Map<String, String> clients = new LinkedHashMap<>();
    clients.put("huc", "");
    clients.put("hc4", "httpclient-4.5.14.jar");
    clients.put("hc5", "httpclient5-5.6.5.jar");
    clients.put("hc5async", "httpclient5-5.6.5.jar");
    clients.put("okhttp", "okhttp-4.12.0.jar");
    clients.put("jdk", "");
    return clients;
  }
}
