package io.levee.it.support;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a test application's outbound endpoints answer: one {@code key=value} per line (newlines in
 * values escaped as {@code \n}), e.g. {@code outcome=exception}, {@code class=...}, {@code
 * sqlState=...}.
 */
public record Reply(Map<String, String> values, String raw) {

  public static Reply parse(String body) {
    Map<String, String> values = new LinkedHashMap<>();
    body.lines()
        .forEach(
            line -> {
              int eq = line.indexOf('=');
              if (eq > 0) {
                values.put(line.substring(0, eq), line.substring(eq + 1).replace("\\n", "\n"));
              }
            });
    return new Reply(values, body);
  }

  /** The value, or the empty string when the key is absent. */
  public String get(String key) {
    return values.getOrDefault(key, "");
  }

  public long number(String key) {
    return Long.parseLong(values.getOrDefault(key, "-1"));
  }

  public boolean ok() {
    return "ok".equals(get("outcome"));
  }

  @Override
  public String toString() {
    return raw;
  }
}
