package io.levee.it.http;

import java.util.LinkedHashMap;
import java.util.Map;

/** The last good answer on JDK 25 through the JDK's own clients. */
class LastGoodJdk25IT extends LastGoodContract {
  @Override
  protected int jdk() {
    return 25;
  }

  @Override
  protected Map<String, String> clients() {
    Map<String, String> clients = new LinkedHashMap<>();
    clients.put("huc", "");
    clients.put("jdk", "");
    return clients;
  }
}
