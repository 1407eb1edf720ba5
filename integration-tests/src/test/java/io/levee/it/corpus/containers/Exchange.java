package io.levee.it.corpus.containers;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One request of a container's fixed list: an HTTP request, or a WebSocket conversation of one text
 * message when {@link #websocket} is set.
 */
record Exchange(
    String method, String path, String form, Map<String, String> headers, boolean websocket) {

  static Exchange get(String path) {
    return new Exchange("GET", path, null, Map.of(), false);
  }

  /** A POST of {@code form}, URL-encoded as a browser sends a form. */
  static Exchange post(String path, String form) {
    return new Exchange(
        "POST", path, form, Map.of("Content-Type", "application/x-www-form-urlencoded"), false);
  }

  /** Opens a WebSocket on {@code path}, sends {@code message} and waits for one text message. */
  static Exchange websocket(String path, String message) {
    return new Exchange("WS", path, message, Map.of(), true);
  }

  Exchange with(String header, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(header, value);
    return new Exchange(method, path, form, Map.copyOf(more), websocket);
  }

  @Override
  public String toString() {
    return method + " " + path + (headers.isEmpty() ? "" : " " + headers);
  }
}
