package io.levee.bootstrap.http;

import io.levee.bootstrap.Blocked;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.UnsupportedEncodingException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The response a blocked connection gives when its resource has an {@code on-block.fallback}:
 * status, headers and body, answered without contacting the host. Header methods behave like the
 * JDK's after a real response: index 0 is the status line with a null key, a lookup by name ignores
 * case and returns the last value, and the map of all headers holds the status line under the null
 * key.
 */
final class SyntheticResponse {
  final int status;
  private final String[] keys;
  private final String[] values;
  private final byte[] body;
  private final Map<String, List<String>> fields;
  private InputStream stream;

  SyntheticResponse(Blocked blocked, boolean head) {
    this.status = blocked.status;
    this.body = head ? new byte[0] : utf8(blocked.body);
    List<String> k = new ArrayList<String>();
    List<String> v = new ArrayList<String>();
    add(k, v, null, "HTTP/1.1 " + status + reason(status));
    if (!has(blocked.headers, "Content-Type")) {
      add(k, v, "Content-Type", blocked.contentType);
    }
    add(k, v, "Content-Length", Integer.toString(utf8(blocked.body).length));
    if (blocked.retryAfterSeconds >= 0 && !has(blocked.headers, "Retry-After")) {
      add(k, v, "Retry-After", Integer.toString(blocked.retryAfterSeconds));
    }
    for (int i = 0; i + 1 < blocked.headers.length; i += 2) {
      add(k, v, blocked.headers[i], blocked.headers[i + 1]);
    }
    this.keys = k.toArray(new String[0]);
    this.values = v.toArray(new String[0]);
    this.fields = fields(keys, values);
  }

  String headerField(String name) {
    if (name == null) {
      return values[0];
    }
    for (int i = keys.length - 1; i > 0; i--) {
      if (name.equalsIgnoreCase(keys[i])) {
        return values[i];
      }
    }
    return null;
  }

  String headerField(int n) {
    return n >= 0 && n < values.length ? values[n] : null;
  }

  String headerFieldKey(int n) {
    return n > 0 && n < keys.length ? keys[n] : null;
  }

  Map<String, List<String>> headerFields() {
    return fields;
  }

  /** The body as one stream per connection, as the JDK returns the same stream on every call. */
  synchronized InputStream body() {
    if (stream == null) {
      stream = new ByteArrayInputStream(body);
    }
    return stream;
  }

  private static void add(List<String> keys, List<String> values, String key, String value) {
    keys.add(key);
    values.add(value);
  }

  private static boolean has(String[] headers, String name) {
    for (int i = 0; i < headers.length; i += 2) {
      if (name.equalsIgnoreCase(headers[i])) {
        return true;
      }
    }
    return false;
  }

  private static Map<String, List<String>> fields(String[] keys, String[] values) {
    Map<String, List<String>> map = new LinkedHashMap<String, List<String>>();
    for (int i = 0; i < keys.length; i++) {
      List<String> list = map.get(keys[i]);
      if (list == null) {
        list = new ArrayList<String>(1);
        map.put(keys[i], list);
      }
      list.add(values[i]);
    }
    for (Map.Entry<String, List<String>> e : map.entrySet()) {
      e.setValue(Collections.unmodifiableList(e.getValue()));
    }
    return Collections.unmodifiableMap(map);
  }

  private static byte[] utf8(String text) {
    try {
      return text.getBytes("UTF-8");
    } catch (UnsupportedEncodingException e) {
      throw new AssertionError(e);
    }
  }

  private static String reason(int status) {
    switch (status) {
      case 200:
        return " OK";
      case 202:
        return " Accepted";
      case 204:
        return " No Content";
      case 400:
        return " Bad Request";
      case 404:
        return " Not Found";
      case 429:
        return " Too Many Requests";
      case 500:
        return " Internal Server Error";
      case 502:
        return " Bad Gateway";
      case 503:
        return " Service Unavailable";
      case 504:
        return " Gateway Timeout";
      default:
        return "";
    }
  }
}
