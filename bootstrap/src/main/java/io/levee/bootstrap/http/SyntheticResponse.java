package io.levee.bootstrap.http;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link HttpAnswer} of a blocked {@code HttpURLConnection} as that class's header methods give
 * it: they behave like the JDK's after a real response: index 0 is the status line with a null key,
 * a lookup by name ignores case and returns the last value, and the map of all headers holds the
 * status line under the null key.
 */
final class SyntheticResponse {
  final int status;
  private final String[] keys;
  private final String[] values;
  private final byte[] body;
  private final Map<String, List<String>> fields;
  private InputStream stream;

  SyntheticResponse(HttpAnswer answer, boolean head) {
    this.status = answer.status;
    this.body = head ? new byte[0] : answer.body();
    int n = answer.headerCount();
    keys = new String[n + 1];
    values = new String[n + 1];
    String reason = HttpAnswer.knownReason(status);
    values[0] = "HTTP/1.1 " + status + (reason == null ? "" : " " + reason);
    for (int i = 0; i < n; i++) {
      keys[i + 1] = answer.headerName(i);
      values[i + 1] = answer.headerValue(i);
    }
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
}
