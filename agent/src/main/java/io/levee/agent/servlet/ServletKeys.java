package io.levee.agent.servlet;

import io.levee.bootstrap.Faults;
import io.levee.bootstrap.servlet.ServletCalls;
import io.levee.rules.engine.KeySource;
import io.levee.rules.model.KeySpec;

/**
 * Reads the key of a per-key rate limit from a servlet request: the client address, a header, a
 * query parameter or a claim of the bearer token, through the {@link ServletCalls} of the request's
 * servlet API, which hold the request with its real type. One per servlet calls instance, handed to
 * the engine with each request.
 *
 * <p>A key is held as long as its bucket and matched against the {@code overrides}, so one longer
 * than {@link #MAX_KEY} characters is not taken: such a request has no key (a header or parameter)
 * or the key {@link KeySpec#NONE} (a claim), and shares that bucket with the others alike.
 */
final class ServletKeys implements KeySource {
  /** Longest key kept, in characters. */
  static final int MAX_KEY = 256;

  private final ServletCalls calls;

  ServletKeys(ServletCalls calls) {
    this.calls = calls;
  }

  @Override
  public String key(Object request, KeySpec spec) {
    Faults.at(Faults.KEYS);
    if (request == null || spec == null) {
      return null;
    }
    try {
      switch (spec.source) {
        case IP:
          return calls.remoteAddr(request);
        case HEADER:
          return bounded(calls.header(request, spec.name));
        case PARAM:
          // From the query string only, parsed here: getParameter would read a form POST's body
          // and fix the request's character encoding before the application's own filters run.
          return bounded(queryParameter(calls.queryString(request), spec.name));
        case JWT:
          return claim(calls.header(request, "Authorization"), spec.name);
        default:
          return null;
      }
    } catch (Throwable t) {
      // A request that cannot say (a recycled or odd wrapper) shares the keyless bucket: it stays
      // limited rather than escaping the limit through an error.
      return spec.source == KeySpec.Source.JWT ? KeySpec.NONE : null;
    }
  }

  /**
   * The claim {@code name} of the bearer token in {@code authorization}; {@link KeySpec#NONE} when
   * there is no token, no such claim, an empty or over-long one, or a token that cannot be read.
   */
  static String claim(String authorization, String name) {
    String value = JwtClaims.fromAuthorization(authorization, name);
    return value == null || value.isEmpty() || value.length() > MAX_KEY ? KeySpec.NONE : value;
  }

  private static String bounded(String key) {
    return key == null || key.length() <= MAX_KEY ? key : null;
  }

  /** The first value of {@code name} in a raw query string, decoded as UTF-8; null if absent. */
  static String queryParameter(String query, String name) {
    if (query == null || name == null) {
      return null;
    }
    int start = 0;
    while (start <= query.length()) {
      int end = query.indexOf('&', start);
      if (end < 0) {
        end = query.length();
      }
      int eq = query.indexOf('=', start);
      int keyEnd = eq >= 0 && eq < end ? eq : end;
      if (keyEnd - start == name.length() && query.startsWith(name, start)) {
        return keyEnd == end ? "" : decode(query.substring(keyEnd + 1, end));
      }
      start = end + 1;
    }
    return null;
  }

  private static String decode(String value) {
    try {
      return java.net.URLDecoder.decode(value, "UTF-8");
    } catch (Exception e) {
      return value;
    }
  }
}
