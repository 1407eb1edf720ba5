package io.levee.rules.lastgood;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the headers of a good answer say about keeping it, and which of them are kept. An answer
 * marked {@code Cache-Control: no-store} or {@code private} is never kept. Kept are the headers
 * that describe the body to any caller later: not the hop-by-hop ones (RFC 9110 §7.6.1: {@code
 * Connection}, {@code Keep-Alive}, {@code Transfer-Encoding} and the like, and every header {@code
 * Connection} names), which belonged to the connection that carried it; not {@code Content-Length},
 * which is set again from the body kept; not {@code Set-Cookie}, which was meant for the caller who
 * got it, not for every caller the answer stands in for later.
 */
final class KeptHeaders {
  private static final String[] DROPPED = {
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "content-length",
    "set-cookie",
    "set-cookie2",
    LastGoodCache.MARK.toLowerCase(Locale.ROOT)
  };

  private KeptHeaders() {}

  /**
   * Whether {@code headers} (name, value, ...; a null name, as a status line has, is skipped) carry
   * a {@code Cache-Control} directive {@code no-store} or {@code private}, in any of its values.
   */
  static boolean forbidKeeping(String[] headers) {
    for (int i = 0; i + 1 < headers.length; i += 2) {
      if ("Cache-Control".equalsIgnoreCase(headers[i]) && headers[i + 1] != null) {
        for (String directive : headers[i + 1].split(",")) {
          String name = directive.trim();
          int eq = name.indexOf('=');
          if (eq >= 0) {
            name = name.substring(0, eq).trim();
          }
          if (name.equalsIgnoreCase("no-store") || name.equalsIgnoreCase("private")) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The {@code Content-Length} the headers announce, or -1 when none (or not a number). */
  static long contentLength(String[] headers) {
    for (int i = 0; i + 1 < headers.length; i += 2) {
      if ("Content-Length".equalsIgnoreCase(headers[i]) && headers[i + 1] != null) {
        try {
          long n = Long.parseLong(headers[i + 1].trim());
          return n >= 0 ? n : -1;
        } catch (NumberFormatException e) {
          return -1;
        }
      }
    }
    return -1;
  }

  /** The headers worth keeping, in their order: see the class comment. */
  static String[] kept(String[] headers) {
    List<String> named = connectionNamed(headers);
    List<String> kept = new ArrayList<String>(headers.length);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      String name = headers[i];
      String value = headers[i + 1];
      if (name == null || value == null) {
        continue;
      }
      String lower = name.toLowerCase(Locale.ROOT);
      if (!dropped(lower) && !named.contains(lower)) {
        kept.add(name);
        kept.add(value);
      }
    }
    return kept.toArray(new String[0]);
  }

  private static boolean dropped(String lowerName) {
    for (String d : DROPPED) {
      if (d.equals(lowerName)) {
        return true;
      }
    }
    return false;
  }

  /** The header names that {@code Connection} lists, lower case. */
  private static List<String> connectionNamed(String[] headers) {
    List<String> named = new ArrayList<String>(2);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      if ("Connection".equalsIgnoreCase(headers[i]) && headers[i + 1] != null) {
        for (String token : headers[i + 1].split(",")) {
          String t = token.trim().toLowerCase(Locale.ROOT);
          if (!t.isEmpty()) {
            named.add(t);
          }
        }
      }
    }
    return named;
  }
}
